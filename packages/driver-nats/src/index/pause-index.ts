/**
 * What a pause key (`p.<hash>` of the jobs bucket) holds: the queue and, while it is paused,
 * when the pause began. A resume rewrites the doc without `pausedAt` (no delete marker).
 */
export interface PauseDoc {
  readonly queue: string;
  readonly pausedAt?: number;
}

/** A pause doc as the index last saw it: a conditional write names `revision`. */
export interface PauseEntry {
  readonly doc: PauseDoc;
  readonly revision: number;
}

/** Queue pauses, mirrored from the jobs bucket: one entry per queue ever paused. */
export class PauseIndex {
  private readonly byQueue = new Map<string, PauseEntry>();

  apply(doc: PauseDoc, revision: number): void {
    if (typeof doc.queue !== 'string') return;
    this.byQueue.set(doc.queue, { doc, revision });
  }

  paused(queue: string): boolean {
    return this.byQueue.get(queue)?.doc.pausedAt !== undefined;
  }

  /** Paused queues in code-unit order, with when each pause began. */
  list(): { queue: string; pausedAt: number }[] {
    const held: { queue: string; pausedAt: number }[] = [];
    for (const [queue, { doc }] of this.byQueue) {
      if (doc.pausedAt !== undefined) held.push({ queue, pausedAt: doc.pausedAt });
    }
    return held.sort((a, b) => (a.queue < b.queue ? -1 : a.queue > b.queue ? 1 : 0));
  }
}

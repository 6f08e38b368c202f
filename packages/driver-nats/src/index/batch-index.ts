import type { BatchState } from '../record.js';

/** Up to `limit` members of `set`, in insertion order. */
function first(set: ReadonlySet<string>, limit: number): string[] {
  const out: string[] = [];
  for (const member of set) {
    if (out.length >= limit) break;
    out.push(member);
  }
  return out;
}

const place = (set: Set<string>, member: string, inside: boolean) => {
  if (inside) set.add(member);
  else set.delete(member);
};

/**
 * The batch decisions the index has seen and the pending rows that name each. A purge tidies
 * three groups (decisions no row names, aborted decisions rows still name, batches named but
 * undecided); each is kept apart as rows and decisions change, so each of its questions costs
 * what it answers, never the keyed backlog: every keyed row names the batch that committed it
 * until its first write.
 */
export class BatchIndex {
  private readonly states = new Map<string, BatchState>();
  private readonly named = new Map<string, Set<string>>();
  private readonly idle = new Set<string>();
  private readonly abortedNamed = new Set<string>();
  /** In the order first named, so the oldest come first. */
  private readonly undecided = new Set<string>();

  state(batch: string): BatchState | undefined {
    return this.states.get(batch);
  }

  /** The rows that name `batch`. */
  rows(batch: string): readonly string[] {
    return [...(this.named.get(batch) ?? [])];
  }

  /** Row `id` names `batch` now. */
  name(batch: string, id: string): void {
    let ids = this.named.get(batch);
    if (ids === undefined) {
      ids = new Set();
      this.named.set(batch, ids);
    }
    ids.add(id);
    this.sort(batch);
  }

  /** Row `id` no longer names `batch`. */
  unname(batch: string, id: string): void {
    const ids = this.named.get(batch);
    if (ids === undefined) return;
    ids.delete(id);
    if (ids.size === 0) this.named.delete(batch);
    this.sort(batch);
  }

  /** The decision of `batch` landed (or, `state` undefined, its key was deleted). */
  decide(batch: string, state: BatchState | undefined): void {
    if (state === undefined) this.states.delete(batch);
    else this.states.set(batch, state);
    this.sort(batch);
  }

  /** Decisions no row names any more: safe to delete. */
  idleBatches(limit: number): string[] {
    return first(this.idle, limit);
  }

  /** Aborted batches some row still names. */
  abortedBatches(limit: number): string[] {
    return first(this.abortedNamed, limit);
  }

  /**
   * Undecided batches for which `stale` holds, oldest first, stopping at the first that does
   * not: the ones behind it were named later.
   */
  undecidedBatches(limit: number, stale: (batch: string) => boolean): string[] {
    const out: string[] = [];
    for (const batch of this.undecided) {
      if (out.length >= limit || !stale(batch)) break;
      out.push(batch);
    }
    return out;
  }

  private sort(batch: string): void {
    const named = this.named.has(batch);
    const state = this.states.get(batch);
    place(this.idle, batch, state !== undefined && !named);
    place(this.abortedNamed, batch, state === 'aborted' && named);
    place(this.undecided, batch, state === undefined && named);
  }
}

import type { JetStreamManager } from '@nats-io/jetstream';
import type { KV, KvWatchEntry } from '@nats-io/kv';
import type { StoredEvent } from './events-codec.js';
import { JobIndex } from './index/job-index.js';
import { type BatchDoc, decodeJson, type StoredDoc } from './record.js';
import { jobsKeyKind } from './subjects.js';

interface Waiter {
  readonly seq: number;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** A value that does not decode: the index leaves its key out rather than stop following the bucket. */
function decoded<T>(entry: KvWatchEntry): T | undefined {
  try {
    return decodeJson<T>(entry.value);
  } catch (error) {
    process.emitWarning(
      `berth: the nats driver skipped key ${entry.key} at revision ${entry.revision}, which is not JSON: ${String(error)}`,
      'BerthWarning',
    );
    return undefined;
  }
}

/**
 * Keeps the index in step with the jobs bucket through one KV watch, and lets callers wait for it
 * to reach a revision: their own last write (read-your-writes, no round trip), or the stream's
 * last sequence (a full sync, one round trip). The watch replays the newest value of every key,
 * then follows every write in revision order; after a reconnect it resumes from the revision it
 * reached, so the index never skips a write that is still stored.
 */
export class Mirror {
  private watcher: { stop(): void } | undefined;
  private waiters: Waiter[] = [];
  private ownSeq = 0;
  private stopped = false;
  private failure: Error | undefined;
  /** Which watch is current: entries a replaced watch still had buffered are dropped. */
  private generation = 0;
  /** The mirror itself; replaced by a fresh one when a replay starts over. */
  index = new JobIndex();

  constructor(
    private readonly jobs: KV,
    private readonly jsm: JetStreamManager,
    private readonly stream: string,
    private readonly timeoutMs: number,
    /** How long delete markers are kept: a watch away longer may have missed some. */
    private readonly markerGraceMs: number,
  ) {}

  /** Starts the watch and waits until the index holds every key the bucket held. */
  async start(): Promise<void> {
    await this.watch(0);
    await this.syncFull();
  }

  /**
   * Resumes the watch after the connection came back (the old consumer may be gone), from the
   * revision it reached. After an outage long enough that delete markers it never saw may have
   * been removed meanwhile, it replays the bucket into a fresh index instead: every read waits
   * for the index to reach its revision, so none sees the replay half done.
   */
  async resume(awayMs: number): Promise<void> {
    const fresh = awayMs * 2 >= this.markerGraceMs;
    // The server may still be settling right after the reconnect: try again until it answers.
    for (let attempt = 0; !this.stopped; attempt += 1) {
      this.watcher?.stop();
      this.generation += 1;
      if (fresh) this.index = new JobIndex();
      try {
        await this.watch(fresh ? 0 : this.index.delivered + 1);
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 100 * 2 ** attempt)));
      }
    }
  }

  private async watch(from: number): Promise<void> {
    const generation = this.generation;
    const iterator = await this.jobs.watch({
      key: '>',
      ...(from > 0 ? { resumeFromRevision: from } : {}),
    });
    if (generation !== this.generation || this.stopped) {
      iterator.stop();
      return;
    }
    this.watcher = iterator;
    this.failure = undefined;
    void (async () => {
      try {
        for await (const entry of iterator) {
          if (generation !== this.generation) return;
          this.apply(entry);
        }
      } catch (error) {
        if (generation === this.generation) {
          this.failure = error instanceof Error ? error : new Error(String(error));
        }
      }
    })();
  }

  private apply(entry: KvWatchEntry): void {
    const { index } = this;
    if (entry.revision <= index.delivered) return;
    const kind = jobsKeyKind(entry.key);
    const deleted = entry.operation !== 'PUT';
    if (deleted)
      index.markers.push({ key: entry.key, revision: entry.revision, at: entry.created.getTime() });
    if (kind?.kind === 'job') {
      index.applyJob(kind.id, deleted ? undefined : decoded<StoredDoc>(entry), entry.revision);
    } else if (kind?.kind === 'batch') {
      index.applyBatch(kind.id, deleted ? undefined : decoded<BatchDoc>(entry)?.state);
    } else if (kind?.kind === 'event') {
      const removed = index.events.remove(kind.id);
      const event = deleted ? undefined : decoded<StoredEvent>(entry);
      if (event !== undefined) index.events.put({ event, seq: entry.revision });
      const name = event?.name ?? removed?.event.name;
      if (name !== undefined) index.rewake(name);
    }
    index.delivered = entry.revision;
    if (this.waiters.length > 0) this.release();
  }

  private release(): void {
    const delivered = this.index.delivered;
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.seq <= delivered) {
        clearTimeout(waiter.timer);
        waiter.resolve();
      } else {
        still.push(waiter);
      }
    }
    this.waiters = still;
  }

  /** Notes a write of this process: reads wait for the index to reach it. */
  wrote(revision: number): void {
    if (revision > this.ownSeq) this.ownSeq = revision;
  }

  /**
   * Resolves once the index has applied revision `seq`. Fails only when the watch made no
   * progress at all for `timeoutMs`: a long replay (a process starting on a large bucket) that
   * keeps moving is waited for.
   */
  reach(seq: number): Promise<void> {
    if (seq <= this.index.delivered) return Promise.resolve();
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      let seen = this.index.delivered;
      const check = () => {
        if (this.index.delivered > seen) {
          seen = this.index.delivered;
          waiter.timer = setTimeout(check, this.timeoutMs);
          return;
        }
        this.waiters = this.waiters.filter((other) => other !== waiter);
        reject(
          new Error(
            `the jobs watch made no progress towards revision ${seq} for ${this.timeoutMs} ms (at ${seen})`,
          ),
        );
      };
      const waiter: Waiter = { seq, resolve, reject, timer: setTimeout(check, this.timeoutMs) };
      this.waiters.push(waiter);
    });
  }

  /** Read-your-writes: the index holds every write this process made. */
  syncOwn(): Promise<void> {
    return this.reach(this.ownSeq);
  }

  /** The index holds every write any process made before this call (one round trip). */
  async syncFull(): Promise<void> {
    const info = await this.jsm.streams.info(this.stream);
    await this.reach(Math.max(info.state.last_seq, this.ownSeq));
  }

  stop(): void {
    this.stopped = true;
    this.generation += 1;
    this.watcher?.stop();
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error('the driver was closed'));
    }
    this.waiters = [];
  }
}

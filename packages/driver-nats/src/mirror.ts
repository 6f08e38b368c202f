import type { JetStreamManager } from '@nats-io/jetstream';
import type { KV, KvWatchEntry } from '@nats-io/kv';
import { TimeoutError } from '@nats-io/transport-node';
import type { StoredEvent } from './events-codec.js';
import { JobIndex } from './index/job-index.js';
import type { PauseDoc } from './index/pause-index.js';
import type { StoredSchedule } from './index/schedule-index.js';
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

/** The watch is confirmed current this often, as a share of the marker grace. */
const BEATS_PER_GRACE = 8;
/** ...but never more often than this: a tiny grace would otherwise keep a request in flight. */
const MIN_BEAT_MS = 100;

/**
 * Keeps the index in step with the jobs bucket through one KV watch, and lets callers wait for it
 * to reach a revision: their own last write (read-your-writes, no round trip), or the stream's
 * last sequence (a full sync, one round trip). The watch replays the newest value of every key,
 * then follows every write in revision order; after a reconnect it resumes from the revision it
 * reached, so the index never skips a write that is still stored.
 *
 * A replay fills a fresh index aside (`building`); it becomes the one callers read (`index`) only
 * once a full sync verified it. Swapped in empty at once, it was what a caller read whose sync had
 * just verified the old index, when a replay began before its continuation ran: a job every node
 * held answered as unknown (the first read after a rolling restart, with the heartbeat's sync
 * released by the same watch entry).
 *
 * A delete marker is removed once it is older than the grace, so a watch that stood still that
 * long may never see one and keep its row (a ghost). Whether it stood still is judged from the
 * last full sync that reached its target (`current`), never from the connection's status: a
 * process frozen by SIGSTOP, or whose connection died silently, hears of its disconnect only
 * after the markers are gone. Half the grace after the last confirmation, the next full sync or
 * reconnect replays the bucket into a fresh index; a heartbeat confirms an idle process every
 * eighth of the grace, so only a process that really stood still pays for a replay.
 */
export class Mirror {
  private watcher: { stop(): void } | undefined;
  private waiters: Waiter[] = [];
  private ownSeq = 0;
  private stopped = false;
  private failure: Error | undefined;
  /** Which watch is current: entries a replaced watch still had buffered are dropped. */
  private generation = 0;
  /** The mirror callers read; replaced only by a replay's index that a full sync verified. */
  index: JobIndex;
  /** A replay's index while it fills: the watch feeds it instead of `index`. */
  private building: JobIndex | undefined;
  /** When (Date.now()) the index last provably held every write: a sync's start, or a replay's. */
  private current = 0;
  /** The index a replay built: its first full sync is trusted, since it read every key afresh. */
  private replayed: JobIndex | undefined;
  private replaying: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private beating = false;

  constructor(
    /** The jobs bucket, opened by `watchedBucket`: a consumer create lost by the cluster is short. */
    private readonly jobs: KV,
    private readonly jsm: JetStreamManager,
    private readonly stream: string,
    private readonly timeoutMs: number,
    /** How long delete markers are kept: a watch that stood still longer may have missed some. */
    private readonly markerGraceMs: number,
    /** How far the lifecycle repair pass verified: each index keeps only rows written after. */
    private readonly verified: () => number = () => 0,
  ) {
    this.index = new JobIndex(verified);
  }

  /** Starts the watch, waits until the index holds every key the bucket held, and the heartbeat. */
  async start(): Promise<void> {
    this.current = Date.now();
    this.replayed = this.index;
    await this.firstWatch();
    await this.syncFull();
    if (this.markerGraceMs > 0 && !this.stopped) {
      const every = Math.max(MIN_BEAT_MS, this.markerGraceMs / BEATS_PER_GRACE);
      this.heartbeat = setInterval(() => this.beat(), every);
      this.heartbeat.unref();
    }
  }

  /** Makes the first watch, asking again after tries left unanswered until `timeoutMs` has passed. */
  private async firstWatch(): Promise<void> {
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      try {
        await this.watch(0);
        return;
      } catch (error) {
        if (!(error instanceof TimeoutError) || Date.now() >= deadline) throw error;
      }
    }
  }

  /** Confirms the watch is current (one full sync), unless the last beat is still at it. */
  private beat(): void {
    if (this.beating) return;
    this.beating = true;
    this.syncFull()
      .catch(() => {})
      .finally(() => {
        this.beating = false;
      });
  }

  /**
   * Whether a delete marker may have been written and removed while the watch stood still:
   * half the grace (the other half covers clock skew between processes) since it was last
   * confirmed current. With a grace of 0 markers go at the next purge and only a reconnect
   * replays: such a setting suits a single process.
   */
  private mayHaveMissed(now: number): boolean {
    return (now - this.current) * 2 >= this.markerGraceMs;
  }

  /**
   * Resumes the watch after the connection came back (the old consumer may be gone), from the
   * revision it reached, or replays the bucket into a fresh index when it may have missed a
   * marker meanwhile: every read waits for the index to reach its revision, so none sees the
   * replay half done.
   */
  resume(): Promise<void> {
    return this.rewatch(this.mayHaveMissed(Date.now()));
  }

  /** Replays the bucket into a fresh index; replays already under way are joined, not repeated. */
  private replay(): Promise<void> {
    this.replaying ??= this.rewatch(true).finally(() => {
      this.replaying = undefined;
    });
    return this.replaying;
  }

  /** The index the watch feeds: a replay's while it fills, else the one callers read. */
  private get fed(): JobIndex {
    return this.building ?? this.index;
  }

  private async rewatch(fresh: boolean): Promise<void> {
    // The server may still be settling right after the reconnect: try again until it answers.
    for (let attempt = 0; !this.stopped; attempt += 1) {
      this.watcher?.stop();
      this.generation += 1;
      if (fresh) {
        this.current = Date.now();
        this.building = new JobIndex(this.verified);
        this.replayed = this.building;
      }
      try {
        await this.watch(fresh ? 0 : this.fed.delivered + 1);
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
    const index = this.fed;
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
    } else if (kind?.kind === 'pause' && !deleted) {
      const pause = decoded<PauseDoc>(entry);
      if (pause !== undefined) index.pauses.apply(pause, entry.revision);
    } else if (kind?.kind === 'schedule') {
      index.schedules.apply(entry.key, deleted ? undefined : decoded<StoredSchedule>(entry));
    }
    index.delivered = entry.revision;
    if (this.waiters.length > 0) this.release();
  }

  private release(): void {
    const delivered = this.fed.delivered;
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
   * Resolves once the fed index (a replay's while it fills) has applied revision `seq`. Fails
   * only when the watch made no progress at all for `timeoutMs`: a long replay (a process
   * starting on a large bucket) that keeps moving is waited for.
   */
  private reach(seq: number): Promise<void> {
    if (seq <= this.fed.delivered) return Promise.resolve();
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      let seen = this.fed.delivered;
      const check = () => {
        if (this.fed.delivered > seen) {
          seen = this.fed.delivered;
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

  /**
   * Read-your-writes: the index holds every write this process made. While a replay fills, a
   * full sync lets callers read its index (the one they read may hold rows whose delete markers
   * the watch missed: the reason for the replay).
   */
  async syncOwn(): Promise<void> {
    const seq = this.ownSeq;
    await this.reach(seq);
    if (this.building !== undefined || this.index.delivered < seq) await this.syncFull();
  }

  /**
   * The index holds every write any process made before this call (one round trip). When the
   * watch may have missed a delete marker since it was last confirmed current, the bucket is
   * replayed first, so no purged row is answered.
   */
  async syncFull(): Promise<void> {
    for (;;) {
      const index = this.fed;
      const started = Date.now();
      const info = await this.jsm.streams.info(this.stream);
      // A purged stream keeps its last sequence but holds no message there for the watch to
      // deliver (an operator's `nats stream purge`): nothing is left to wait for.
      const last = info.state.messages === 0 ? 0 : info.state.last_seq;
      await this.reach(Math.max(last, this.ownSeq));
      // A replay began meanwhile: what counts is the fresh index.
      if (index !== this.fed) continue;
      // A replay's index holds every write made before this sync began: callers may read it.
      if (index === this.building) {
        this.index = index;
        this.building = undefined;
      }
      if (index !== this.replayed && this.markerGraceMs > 0 && this.mayHaveMissed(Date.now())) {
        await this.replay();
        continue;
      }
      if (index === this.replayed) this.replayed = undefined;
      this.current = Math.max(this.current, started);
      return;
    }
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.heartbeat);
    this.generation += 1;
    this.watcher?.stop();
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error('the driver was closed'));
    }
    this.waiters = [];
  }
}

import type { Driver } from '../../contract/driver.js';
import { sleepFor } from '../timers.js';
import { type Admission, type Admitted, slotFreedEvent } from './admission.js';
import type { RuntimeLogger } from './logger.js';
import { errorFields } from './logger.js';
import { type SlotAsk, SlotQueue } from './slot-queue.js';

/** How long a slot-freed event stays stored: it only ever wakes, in its publish's own change. */
export const SLOT_FREED_TTL_MS = 1_000;

export interface SlotWaitsInput {
  readonly driver: Driver;
  /** How often a slot held for a handler left behind is renewed, ms. */
  readonly renewIntervalMs: number;
  /** Aborted once the worker's stop gives up waiting: a slot held for a handler is left then. */
  readonly stopped: AbortSignal;
  readonly logger: RuntimeLogger;
  /** A released slot's waiters were told: the claim loop looks for them. */
  readonly onFreed: () => void;
  /** Jobs that may wait locally at once: they run nothing, so they take no worker slot. */
  readonly maxWaiting: number;
}

/** Slots whose last release this worker remembers, at most (older ones fall back to the delay). */
const REMEMBERED_RELEASES = 1_000;

/**
 * Prompt hand-over of per-key concurrency slots. A job refused a slot a job of this worker
 * holds waits for it locally (see SlotQueue), and gets it straight from that job. Any other
 * job bounced off a full slot parks waiting for the slot's freed event (with the key-busy delay
 * as a fallback); a release nobody here waits for publishes that event, which makes every job
 * waiting for it due at once, and wakes this worker's claim loop. A release that lands between
 * a bounce's look and its park woke nobody: the bounce sees the release (this worker's,
 * remembered per slot) and publishes again.
 */
export class SlotWaits {
  private seq = 0;
  private readonly released = new Map<string, number>();
  private readonly local: SlotQueue;

  constructor(private readonly input: SlotWaitsInput) {
    this.local = new SlotQueue(input.maxWaiting, (slot, admitted) =>
      this.releaseNow(slot, () => admitted.release()),
    );
  }

  /**
   * Takes a job's fleet slots; while jobs of this worker hold its key's slots, the job waits
   * here for one (see SlotQueue.admit). `lost`: the lease went while it waited.
   */
  admit(asked: SlotAsk): Promise<Admission | 'lost'> {
    return this.local.admit(asked);
  }

  /** Jobs waiting locally for a slot: they take no worker slot. */
  waiting(): number {
    return this.local.waiting();
  }

  /** The worker stops: local waiters go back to the queue, and no job waits locally again. */
  close(): void {
    this.local.close();
  }

  /** A point in this worker's releases, taken before a bounce looks at the slot. */
  mark(): number {
    return this.seq;
  }

  /** The event a job bounced off `slot` waits for. */
  eventOf(slot: string): string {
    return slotFreedEvent(slot);
  }

  /** After a bounce parked: a release of `slot` since `since` is announced again. */
  recheck(slot: string, since: number): void {
    const at = this.released.get(slot);
    if (at !== undefined && at > since) void this.announce(slot);
  }

  /** Hands `admitted`'s slot to a job waiting here, else releases it and tells the waiters. */
  release(admitted: Admitted, logger: RuntimeLogger): Promise<void> {
    const { slot } = admitted;
    if (slot === undefined) return Promise.resolve();
    return this.local.release(slot, admitted).catch((error: unknown) => {
      logger.warn('handing on the concurrency slot failed', errorFields(error));
    });
  }

  private async releaseNow(slot: string, release: () => Promise<void>): Promise<void> {
    try {
      await release();
    } catch (error) {
      this.input.logger.warn(
        'releasing the concurrency slot failed; it frees at its ttl',
        errorFields(error),
      );
      return;
    }
    this.seq += 1;
    if (this.released.size >= REMEMBERED_RELEASES) this.released.clear();
    this.released.set(slot, this.seq);
    await this.announce(slot);
  }

  /**
   * Gives the slot up once the handler has really ended: an aborted handler that ignores its
   * signal still runs, and still counts against the limit, so its slot is renewed until it
   * returns (or the worker stops, and the slot frees at its ttl).
   */
  async releaseAfter(
    admission: Admitted,
    handlerSettled: Promise<void>,
    logger: RuntimeLogger,
  ): Promise<void> {
    if (admission.slot === undefined) return;
    if (await this.holdWhile(handlerSettled, admission)) {
      logger.warn(
        'the worker stopped while an aborted handler still ran; its slot frees at its ttl',
      );
      return;
    }
    await this.release(admission, logger);
  }

  /**
   * Renews the slot now and every renewal period until `done` settles; answers false then, or
   * true when the worker stopped first (the slot is left to its ttl).
   */
  private async holdWhile(done: Promise<void>, admission: Admitted): Promise<boolean> {
    const { driver, renewIntervalMs, stopped } = this.input;
    for (;;) {
      // Renewed first: the attempt ended at a lease renewal that may have skipped the slot's.
      await admission.renew().catch(() => false);
      const tick = new AbortController();
      const onStop = () => tick.abort();
      stopped.addEventListener('abort', onStop, { once: true });
      const first = await Promise.race([
        done.then(() => 'done' as const),
        sleepFor(driver.clock, renewIntervalMs, tick.signal).then(
          () => 'tick' as const,
          () => 'stopped' as const,
        ),
      ]);
      tick.abort();
      stopped.removeEventListener('abort', onStop);
      if (first === 'done') return false;
      if (first === 'stopped' || stopped.aborted) return true;
    }
  }

  private async announce(slot: string): Promise<void> {
    try {
      await this.input.driver.events.publish(slotFreedEvent(slot), null, {
        ttl: SLOT_FREED_TTL_MS,
      });
    } catch (error) {
      this.input.logger.warn(
        'announcing a freed concurrency slot failed; its waiters run after the key-busy delay',
        errorFields(error),
      );
    }
    this.input.onFreed();
  }
}

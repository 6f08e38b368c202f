import type { Admission, Admitted, ConcurrencySlot } from './admission.js';

/** What a job waiting here gets next. */
type Turn =
  /** The slot, handed on by a job of this worker that ended with it. */
  | { readonly kind: 'handed'; readonly slot: Admitted }
  /** Ask the driver (counted in `asking` already): nobody here holds the slot any more. */
  | { readonly kind: 'ask' }
  /** Go back to the queue as a bounce does (the worker stops, or no room to wait). */
  | { readonly kind: 'left' }
  /** The job's lease is gone (cancelled, or lapsed and taken): it is no longer this worker's. */
  | { readonly kind: 'lost' };

/** One job's ask for its fleet slots (see SlotQueue.admit). */
export interface SlotAsk {
  /** The job's concurrency slot, when it has a limit. */
  readonly slot: ConcurrencySlot | undefined;
  /** Takes the slots from the driver, or with `handed`, the one a job here passed on. */
  readonly take: (handed: Admitted | undefined) => Promise<Admission>;
  /** Keeps the waiting job's lease; a lost lease calls `onLost`. */
  readonly keep: (onLost: () => void) => { stop(): void };
  /** False for a job that must not wait (whenBusy skip): a busy key answers at once. */
  readonly waits: boolean;
}

const left: Turn = { kind: 'left' };
const ask: Turn = { kind: 'ask' };

/**
 * Local hand-over of per-key concurrency slots. While jobs of this worker hold (or are asking
 * for) every slot of a key it may take, another job of that key waits here, in memory, its
 * lease kept, instead of asking the driver or going back to the queue: when a holder ends, its
 * slot passes straight to the first waiter — no release, no freed event, no wake, no claim, no
 * acquire, so the next job of the key starts within microseconds. Waiters take no worker slot
 * (they run nothing) and are at most `max`; past that, or when the slot is held elsewhere, a
 * job bounces as before and waits for the freed event.
 */
export class SlotQueue {
  /** Slots this worker holds, per key (a hand-over keeps the count). */
  private readonly holds = new Map<string, number>();
  /** Acquires of this worker still out, per key. */
  private readonly asking = new Map<string, number>();
  private readonly waiters = new Map<string, ((turn: Turn) => void)[]>();
  private count = 0;
  private closed = false;

  constructor(
    private readonly max: number,
    /** Really releases a slot nobody here waits for (and announces it). */
    private readonly free: (slot: string, admitted: Admitted) => Promise<void>,
  ) {}

  /** Jobs waiting here now. */
  waiting(): number {
    return this.count;
  }

  /**
   * Takes a job's fleet slots with `take`. A job whose key's slots are all held or asked for by
   * jobs of this worker waits here for one (its lease kept by `keep`) and then takes the rest
   * with that slot handed on. Answers the admission, or `lost` when the lease went meanwhile.
   */
  async admit(asked: SlotAsk): Promise<Admission | 'lost'> {
    const { slot, take, keep, waits } = asked;
    if (slot === undefined) return take(undefined);
    const { key } = slot;
    let refusal: Admission = { busy: 'concurrency', slot: key };
    let turn: Turn;
    // A job that does not wait (whenBusy skip) is refused at once where another would queue.
    if (!waits && this.ours(key) >= slot.limit) return refusal;
    if (this.ours(key) >= slot.limit) turn = await this.wait(key, keep);
    else {
      this.add(this.asking, key, 1);
      turn = ask;
    }
    for (;;) {
      if (turn.kind === 'lost') return 'lost';
      if (turn.kind === 'left') return refusal;
      const handed = turn.kind === 'handed' ? turn.slot : undefined;
      let admission: Admission;
      try {
        admission = await take(handed);
      } catch (error) {
        // A key function threw (the attempt fails): the slot goes on to whoever waits for it.
        if (handed === undefined) this.add(this.asking, key, -1);
        if (handed !== undefined) await this.release(key, handed);
        else this.nextAsks(key);
        throw error;
      }
      if (handed === undefined) this.add(this.asking, key, -1);
      if (admission.busy === false) {
        if (handed === undefined) this.add(this.holds, key, 1);
        return admission;
      }
      refusal = admission;
      // Refused after a hand-over (its rate limit was full, a driver blip): pass the slot on.
      if (handed !== undefined) await this.release(key, handed);
      if (admission.busy !== 'concurrency') {
        this.nextAsks(key);
        return admission;
      }
      // Refused the slot while a job here holds it or asks for it: wait for that one. Refused
      // with none here, the slot is held elsewhere: every waiter goes back to the queue.
      if (this.ours(key) === 0) this.drop(key);
      turn = this.ours(key) > 0 && waits ? await this.wait(key, keep) : left;
    }
  }

  /**
   * A job of this worker is done with its slot: the first waiter for it gets it, else it is
   * released (and a job that came to wait meanwhile asks the driver). A slot whose renewal
   * failed is never handed on.
   */
  async release(slot: string, admitted: Admitted): Promise<void> {
    const next = admitted.held() ? this.shift(slot) : undefined;
    if (next !== undefined) {
      // Renewed at once: the next job's first renewal is a whole period away.
      void admitted.renew().catch(() => false);
      next({ kind: 'handed', slot: admitted });
      return;
    }
    // Still counted as held while the release is out: a job of the key that comes meanwhile
    // waits here rather than asking for a slot the driver does not see free yet.
    await this.free(slot, admitted);
    this.add(this.holds, slot, -1);
    this.nextAsks(slot);
  }

  /** The worker stops: every waiter goes back to the queue, and none waits from now on. */
  close(): void {
    this.closed = true;
    for (const slot of [...this.waiters.keys()]) this.drop(slot);
  }

  /** Slots of `key` this worker holds or is asking for. */
  private ours(key: string): number {
    return (this.holds.get(key) ?? 0) + (this.asking.get(key) ?? 0);
  }

  private add(counts: Map<string, number>, key: string, by: number): void {
    const next = (counts.get(key) ?? 0) + by;
    if (next > 0) counts.set(key, next);
    else counts.delete(key);
  }

  private shift(key: string): ((turn: Turn) => void) | undefined {
    const queue = this.waiters.get(key);
    const next = queue?.shift();
    if (queue?.length === 0) this.waiters.delete(key);
    if (next !== undefined) this.count -= 1;
    return next;
  }

  /** Once no job here holds or asks for `key`, the first waiter asks the driver itself. */
  private nextAsks(key: string): void {
    if (this.ours(key) > 0) return;
    const next = this.shift(key);
    if (next === undefined) return;
    this.add(this.asking, key, 1);
    next(ask);
  }

  private drop(key: string): void {
    let next = this.shift(key);
    while (next !== undefined) {
      next(left);
      next = this.shift(key);
    }
  }

  /** Waits for a turn at `key`'s slot; `left` at once when the worker stops or no room is left. */
  private wait(key: string, keep: (onLost: () => void) => { stop(): void }): Promise<Turn> {
    if (this.closed || this.count >= this.max) return Promise.resolve(left);
    return new Promise<Turn>((resolve) => {
      let lease: { stop(): void } | undefined;
      const waiter = (turn: Turn) => {
        lease?.stop();
        resolve(turn);
      };
      const queue = this.waiters.get(key) ?? [];
      queue.push(waiter);
      this.waiters.set(key, queue);
      this.count += 1;
      lease = keep(() => {
        const at = this.waiters.get(key)?.indexOf(waiter) ?? -1;
        if (at < 0) return;
        this.waiters.get(key)?.splice(at, 1);
        if (this.waiters.get(key)?.length === 0) this.waiters.delete(key);
        this.count -= 1;
        waiter({ kind: 'lost' });
      });
    });
  }
}

import type { Clock } from '../../clock.js';
import type { Driver } from '../../contract/driver.js';
import type { AckItem, NackItem } from '../../contract/records.js';
import { timeoutsFor } from '../timers.js';

/** Told how one settle of a batch went. */
export interface SettleWaiter {
  /** The batch was answered: whether this settle landed. */
  landed(landed: boolean): void;
  /** The batch call failed: nothing of it is known to have landed. */
  failed(error: unknown): void;
}

interface Waiting<T> {
  readonly item: T;
  readonly waiter: SettleWaiter;
}

/** The most settles one ackMany/nackMany carries; more flush at once. */
const MAX_SETTLE_BATCH = 1_000;

/**
 * Gathers the acks and nacks that finish within `windowMs` into one `ackMany` and one
 * `nackMany`: batching the settle is most of a Postgres worker's throughput. Each caller is
 * answered whether its own settle landed.
 */
export class SettleBatcher {
  private acks: Waiting<AckItem>[] = [];
  private nacks: Waiting<NackItem>[] = [];
  private cancelTimer: (() => void) | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private immediate = false;

  constructor(
    private readonly driver: Driver,
    private readonly clock: Clock,
    private readonly windowMs: number,
  ) {}

  ack(item: AckItem): Promise<boolean> {
    return this.add(this.acks, item);
  }

  /** The same as `ack`, answered through `waiter`: no promise per settle on the hot path. */
  ackTo(item: AckItem, waiter: SettleWaiter): void {
    this.push(this.acks, item, waiter);
  }

  nack(item: NackItem): Promise<boolean> {
    return this.add(this.nacks, item);
  }

  /** From now on every settle is sent within the tick (a draining worker waits on no window). */
  flushImmediately(): void {
    this.immediate = true;
    this.flush();
  }

  /** Sends what waits and answers once every batch sent so far has been answered. */
  async drain(): Promise<void> {
    this.flush();
    await Promise.all([...this.inFlight]);
  }

  private add<T>(queue: Waiting<T>[], item: T): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.push(queue, item, { landed: resolve, failed: reject });
    });
  }

  private push<T>(queue: Waiting<T>[], item: T, waiter: SettleWaiter): void {
    queue.push({ item, waiter });
    if (this.acks.length + this.nacks.length >= MAX_SETTLE_BATCH) this.flush();
    else this.arm();
  }

  private arm(): void {
    if (this.cancelTimer !== undefined) return;
    if (this.immediate || this.windowMs <= 0) {
      let live = true;
      this.cancelTimer = () => {
        live = false;
      };
      queueMicrotask(() => {
        if (live) this.flush();
      });
      return;
    }
    this.cancelTimer = timeoutsFor(this.clock)(() => this.flush(), this.windowMs);
  }

  private flush(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    const acks = this.acks;
    const nacks = this.nacks;
    this.acks = [];
    this.nacks = [];
    if (acks.length > 0) this.send(acks, (items) => this.driver.ackMany(items));
    if (nacks.length > 0) this.send(nacks, (items) => this.driver.nackMany(items));
  }

  private send<T>(batch: Waiting<T>[], call: (items: T[]) => Promise<readonly boolean[]>): void {
    const items = new Array<T>(batch.length);
    for (let index = 0; index < batch.length; index += 1)
      items[index] = (batch[index] as Waiting<T>).item;
    const sent = call(items).then(
      (landed) => {
        for (let index = 0; index < batch.length; index += 1) {
          (batch[index] as Waiting<T>).waiter.landed(landed[index] === true);
        }
      },
      (error: unknown) => {
        for (const waiting of batch) waiting.waiter.failed(error);
      },
    );
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }
}

import type { Clock } from '../../clock.js';
import type { Driver } from '../../contract/driver.js';
import type { AckItem, NackItem } from '../../contract/records.js';
import { timeoutsFor } from '../timers.js';

interface Waiting<T> {
  readonly item: T;
  readonly resolve: (landed: boolean) => void;
  readonly reject: (error: unknown) => void;
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
      queue.push({ item, resolve, reject });
      if (this.acks.length + this.nacks.length >= MAX_SETTLE_BATCH) this.flush();
      else this.arm();
    });
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
    const sent = call(batch.map((waiting) => waiting.item)).then(
      (landed) => {
        for (const [index, waiting] of batch.entries()) waiting.resolve(landed[index] === true);
      },
      (error: unknown) => {
        for (const waiting of batch) waiting.reject(error);
      },
    );
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }
}

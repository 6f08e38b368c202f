import type { Driver } from '../../contract/driver.js';
import { onDue } from '../due-hub.js';
import type { ClaimLoop } from './claim-loop.js';
import type { LeaseKeeper } from './lease-keeper.js';
import { errorFields, type RuntimeLogger } from './logger.js';

/**
 * What wakes a worker besides its poll: this process's due hub (a delayed job a client of the
 * process enqueued, through the same driver object) and the driver's subscription (work made
 * claimable anywhere, and cancels of running jobs, which renew that job's lease at once so the
 * refusal ends its attempt).
 */
export class WorkerWake {
  private stopListening = (): void => {};
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly deps: {
      readonly driver: Driver;
      readonly queues: readonly string[];
      readonly loop: Pick<ClaimLoop, 'wake' | 'dueAt'>;
      readonly keeper: Pick<LeaseKeeper, 'renewNow'>;
      readonly logger: RuntimeLogger;
    },
  ) {}

  /** Listens to both; a subscription that fails leaves the worker polling (logged). */
  async open(): Promise<void> {
    const { driver, queues, loop, keeper, logger } = this.deps;
    this.stopListening = onDue(driver, (queue, at) => {
      if (!queues.includes(queue)) return;
      // A job due now wakes a subscribed worker through the subscription as well (it reopens
      // and wakes every queue after an outage): a claim for each signal sends one that comes
      // back empty. A delayed job still sets this process's timer.
      if (this.unsubscribe !== undefined && at <= driver.clock.now()) return;
      loop.dueAt(at);
    });
    if (driver.subscribe === undefined) return;
    try {
      this.unsubscribe = await driver.subscribe(
        queues,
        () => loop.wake(),
        (jobId) => keeper.renewNow(jobId),
      );
    } catch (error) {
      logger.warn('the wake subscription failed; polling only', errorFields(error));
    }
  }

  /** Stops hearing this process's due times (a stop begins). */
  stopDue(): void {
    this.stopListening();
  }

  /** Ends the subscription, if any; a failure is logged, never thrown. */
  async unsubscribeDriver(): Promise<void> {
    const drop = this.unsubscribe;
    this.unsubscribe = undefined;
    await drop?.().catch((error: unknown) =>
      this.deps.logger.warn('unsubscribing failed', errorFields(error)),
    );
  }
}

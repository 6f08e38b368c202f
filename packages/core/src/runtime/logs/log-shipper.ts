import type { Driver } from '../../contract/driver.js';
import {
  type JobLogLevel,
  type LogLineInput,
  MAX_JOB_LOG_LINES,
  MAX_LOG_APPEND,
} from '../../contract/logs.js';
import type { Fence } from '../../contract/records.js';
import { normaliseLogMessage } from '../../screen/logs.js';
import { timeoutsFor } from '../timers.js';
import { errorFields, type RuntimeLogger } from '../worker/logger.js';

/** How long a logged line waits for the worker's next flush, ms. */
export const LOG_FLUSH_MS = 200;
/** The longest the settle waits for an attempt's last log lines, ms. */
export const LOG_SETTLE_WAIT_MS = 1_000;

/**
 * The worker's log flusher: ONE timer for every attempt with lines waiting, armed only while
 * some wait. Each tick sends one batch per such attempt (at most MAX_LOG_APPEND lines).
 */
export class LogShipper {
  readonly #due = new Set<AttemptLog>();
  #cancel: (() => void) | undefined;

  constructor(
    readonly driver: Driver,
    readonly logger: RuntimeLogger,
    readonly intervalMs: number = LOG_FLUSH_MS,
  ) {}

  /** The log of one attempt; `onRefused` is told once when the fence no longer holds. */
  open(fence: Fence, onRefused: () => void): AttemptLog {
    return new AttemptLog(this, fence, onRefused);
  }

  /** `log` has lines to send at the next tick. */
  due(log: AttemptLog): void {
    this.#due.add(log);
    this.#cancel ??= timeoutsFor(this.driver.clock)(() => this.#tick(), this.intervalMs);
  }

  #tick(): void {
    this.#cancel = undefined;
    const due = [...this.#due];
    this.#due.clear();
    for (const log of due) log.ship();
  }
}

/**
 * One attempt's lines not yet written, and how many it wrote (the `from` of its next batch, so
 * a batch retried after a failure is stored once). At most one append in flight. Unsent lines
 * are bounded by MAX_JOB_LOG_LINES: past that they are dropped here, with one warning.
 */
export class AttemptLog {
  #pending: LogLineInput[] = [];
  #written = 0;
  #inFlight: Promise<boolean> | undefined;
  #closed = false;
  #refused = false;
  #warned = false;

  constructor(
    readonly shipper: LogShipper,
    readonly fence: Fence,
    readonly onRefused: () => void,
  ) {}

  write(level: JobLogLevel, message: string): void {
    if (this.#closed || this.#refused) return;
    if (this.#pending.length >= MAX_JOB_LOG_LINES) {
      if (!this.#warned) {
        this.#warned = true;
        this.shipper.logger.warn('ctx.log is writing faster than the driver takes lines; dropping');
      }
      return;
    }
    const at = this.shipper.driver.clock.now();
    this.#pending.push({ at, level, message: normaliseLogMessage(message) });
    if (this.#inFlight === undefined) this.shipper.due(this);
  }

  /** Sends the next batch unless one is in flight. */
  ship(): void {
    // After close, only close sends: two sends at once would each take the same lines off.
    if (this.#closed || this.#inFlight !== undefined || this.#pending.length === 0) return;
    if (this.#refused) return;
    this.#inFlight = this.#send().finally(() => {
      this.#inFlight = undefined;
      if (!this.#closed && this.#pending.length > 0) this.shipper.due(this);
    });
  }

  /** Never rejects: a failed batch stays pending (answers false) for the next try. */
  async #send(): Promise<boolean> {
    const lines = this.#pending.slice(0, MAX_LOG_APPEND);
    const { driver, logger } = this.shipper;
    try {
      const landed = await driver.logs.append(this.fence, { from: this.#written, lines });
      if (!landed) {
        this.#refused = true;
        this.#pending = [];
        if (!this.#closed) this.#tell();
        return false;
      }
    } catch (error) {
      logger.warn('writing the job’s log lines failed; trying again', errorFields(error));
      return false;
    }
    this.#pending.splice(0, lines.length);
    this.#written += lines.length;
    return true;
  }

  #tell(): void {
    try {
      this.onRefused();
    } catch (error) {
      this.shipper.logger.error('a log callback threw', errorFields(error));
    }
  }

  /**
   * Refuses later lines, then (unless `write` is false: the lease is lost) writes what is left,
   * batch after batch, each tried at most twice, for at most LOG_SETTLE_WAIT_MS: a hung backend never holds
   * the settle. Lines not written by then are dropped.
   */
  async close(write: boolean): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const clock = this.shipper.driver.clock;
    let cancel = (): void => {};
    const late = new Promise<'late'>((resolve) => {
      cancel = timeoutsFor(clock)(() => resolve('late'), LOG_SETTLE_WAIT_MS);
    });
    let inTime = true;
    if (this.#inFlight !== undefined)
      inTime = (await Promise.race([this.#inFlight, late])) !== 'late';
    // A batch that failed is sent once more (same `from`: stored once even if it had landed).
    let failed = false;
    while (inTime && write && !this.#refused && this.#pending.length > 0) {
      const answer = await Promise.race([this.#send(), late]);
      if (answer === 'late') inTime = false;
      else if (answer) failed = false;
      else if (failed) break;
      else failed = true;
    }
    cancel();
    if (!inTime) {
      this.shipper.logger.warn(
        `the last log lines were not written within ${LOG_SETTLE_WAIT_MS} ms; settling without them`,
      );
    }
    this.#pending = [];
  }
}

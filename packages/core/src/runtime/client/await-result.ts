import type { Driver } from '../../contract/driver.js';
import type { ByIdOptions, JobRecord, Json } from '../../contract/records.js';
import { BerthError } from '../../errors/berth-error.js';
import { jobNotFound } from '../../errors/refusals.js';
import { onJobSettled } from '../settle-hub.js';
import { retainSettleWatch } from '../settle-watch.js';
import { sleepFor } from '../timers.js';

/** How long `result()` and `enqueueAndWait` wait when given no `timeoutMs`, ms. */
export const DEFAULT_RESULT_TIMEOUT_MS = 60_000;
/** The first and the longest gap between two looks at the job, ms: the gap doubles in between. */
export const RESULT_POLL_MIN_MS = 25;
export const RESULT_POLL_MAX_MS = 1_000;

export interface WaitOptions {
  /** Give up after this many ms (the driver's clock) with JOB_WAIT_TIMEOUT. Default 60 000. */
  readonly timeoutMs?: number;
  /** Stops the wait; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** JOB_FAILED for job `record` that settled `state` without a result. */
export function jobFailed(
  record: Pick<JobRecord, 'id' | 'name' | 'lastError'>,
  state: 'failed' | 'dead' | 'cancelled',
): BerthError {
  const error = record.lastError;
  return new BerthError({
    code: 'JOB_FAILED',
    detail: `job ${record.id} (${record.name}) settled ${state}${error === undefined ? '' : `: ${error.message}`}`,
    meta: {
      jobId: record.id,
      name: record.name,
      state,
      ...(error === undefined
        ? {}
        : {
            error: {
              message: error.message,
              ...(error.code === undefined ? {} : { code: error.code }),
            },
          }),
    },
  });
}

/**
 * Waits until job `id` settles and answers its result: `completed` answers `result`, `failed`,
 * `dead` and `cancelled` throw JOB_FAILED, and a wait past `timeoutMs` throws JOB_WAIT_TIMEOUT.
 * It looks at the row with `driver.get` when the job settles: a worker of this process on the
 * same driver object tells it at once (settle-hub.ts), and a driver with `watchSettles` tells it
 * of a settle made by any process (settle-watch.ts), then it looks every second only in case a
 * notice was lost. A driver without notices is polled, the gap doubling from 25 ms to 1 s: cheap
 * for a long job, prompt for a short one.
 */
export async function awaitResult(
  driver: Driver,
  id: string,
  options: WaitOptions & ByIdOptions = {},
): Promise<Json | undefined> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_RESULT_TIMEOUT_MS;
  const byId: ByIdOptions = options.tenantId === undefined ? {} : { tenantId: options.tenantId };
  const deadline = driver.clock.now() + timeoutMs;
  // Listening before the first look: a settle after it is heard.
  const watch = await retainSettleWatch(driver);
  try {
    return await lookUntilSettled({
      driver,
      id,
      byId,
      deadline,
      timeoutMs,
      watched: watch.live,
      signal: options.signal,
    });
  } finally {
    watch.release();
  }
}

interface Look {
  readonly driver: Driver;
  readonly id: string;
  readonly byId: ByIdOptions;
  /** The instant (driver clock) past which the wait gives up, `timeoutMs` after it began. */
  readonly deadline: number;
  readonly timeoutMs: number;
  /** Whether settle notices reach this process: then a look once a second is only a safety net. */
  readonly watched: boolean;
  readonly signal: AbortSignal | undefined;
}

async function lookUntilSettled(look: Look): Promise<Json | undefined> {
  const { driver, id, byId, deadline, timeoutMs, watched, signal } = look;
  let gap = watched ? RESULT_POLL_MAX_MS : RESULT_POLL_MIN_MS;
  for (;;) {
    const record = await driver.get(id, byId);
    if (record === undefined) throw jobNotFound(id);
    if (record.state === 'completed') return record.result;
    if (record.state === 'failed' || record.state === 'dead' || record.state === 'cancelled') {
      throw jobFailed(record, record.state);
    }
    const left = deadline - driver.clock.now();
    if (left <= 0) {
      throw new BerthError({
        code: 'JOB_WAIT_TIMEOUT',
        detail: `job ${id} (${record.name}) had not settled after ${timeoutMs} ms; it is ${record.state}`,
        meta: { jobId: id, name: record.name, timeoutMs, state: record.state },
      });
    }
    await sleepUnlessSettled(driver, id, Math.min(gap, left), signal);
    gap = Math.min(gap * 2, RESULT_POLL_MAX_MS);
  }
}

/** Sleeps `ms`, ending early when this process settles job `id`; `signal` still rejects it. */
async function sleepUnlessSettled(
  driver: Driver,
  id: string,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const settled = new AbortController();
  const stop = onJobSettled(driver, id, () => settled.abort());
  try {
    await sleepFor(
      driver.clock,
      ms,
      signal === undefined ? settled.signal : AbortSignal.any([signal, settled.signal]),
    );
  } catch (error) {
    if (signal?.aborted === true || !settled.signal.aborted) throw error;
  } finally {
    stop();
  }
}

import { randomUUID } from 'node:crypto';
import type {
  BackfillByIdOptions,
  BackfillListOptions,
  BackfillRun,
  BackfillStatus,
} from '../contract/backfills.js';
import type { Driver } from '../contract/driver.js';
import { DEFAULT_MAX_ATTEMPTS, DEFAULT_QUEUE } from '../contract/limits.js';
import type { Json } from '../contract/records.js';
import { LIVE_STATES } from '../contract/states.js';
import { BerthError } from '../errors/berth-error.js';
import { screenMaxAttempts } from '../screen/enqueue.js';
import { backfillJobName } from './define-backfill.js';
import type { BackfillDefinition } from './types.js';

export interface BackfillStartOptions {
  /** Start for this tenant: the run and its runner job are the tenant's. */
  readonly tenantId?: string;
  /** Where the first pass starts. Default null: the collection's beginning. */
  readonly cursor?: Json | null;
  /** Choose the run's id (a UUID), so a start retried after a lost answer answers the same run. */
  readonly runId?: string;
  /** Only when starting by name: the runner job's queue (default `default`). */
  readonly queue?: string;
  /** Only when starting by name: runs of the name allowed at once (default 1). */
  readonly concurrency?: number;
  /**
   * Only when starting by name: the runner job's attempts in all (default 3). Started with its
   * definition, the runner takes the backfill's `retry.maxAttempts`.
   */
  readonly maxAttempts?: number;
}

/** Starting, steering and reading backfill runs: `client.backfills`, the CLI and the dashboard. */
export interface BackfillControl {
  /**
   * Starts a run: stores it in the ledger, then enqueues its runner job. BACKFILL_RUNNING while
   * the backfill's `concurrency` runs are running or paused. By name (the CLI's way), the queue
   * and concurrency come from the options.
   */
  start(
    backfill: BackfillDefinition | string,
    options?: BackfillStartOptions,
  ): Promise<BackfillRun>;
  /** Stops the run after the pass in flight commits; idempotent. */
  pause(runId: string, options?: BackfillByIdOptions): Promise<BackfillRun>;
  /**
   * Goes on from the committed cursor with a new runner job, on the queue and with the attempts
   * of the run's last runner job (the defaults when that job is gone). Also of a running run
   * whose runner job is gone (its worker died on the last attempt, or the enqueue after a start
   * was lost).
   */
  resume(runId: string, options?: BackfillByIdOptions): Promise<BackfillRun>;
  /** Ends the run; a pass in flight is not counted. Idempotent. */
  cancel(runId: string, options?: BackfillByIdOptions): Promise<BackfillRun>;
  get(runId: string, options?: BackfillByIdOptions): Promise<BackfillRun | undefined>;
  list(options?: BackfillListOptions): Promise<readonly BackfillRun[]>;
}

/** BACKFILL_NOT_FOUND for `runId`: what a by-id read that found nothing answers. */
export const backfillNotFound = (runId: string) =>
  new BerthError({
    code: 'BACKFILL_NOT_FOUND',
    detail: `no backfill run ${runId}`,
    meta: { runId },
  });

const notActive = (run: BackfillRun) =>
  new BerthError({
    code: 'BACKFILL_NOT_ACTIVE',
    detail: `backfill run ${run.runId} (${run.name}) has ended: it is ${run.status}`,
    meta: { runId: run.runId, status: run.status },
  });

export function backfillControl(driver: Driver): BackfillControl {
  const ledger = driver.backfills;

  const enqueueRunner = async (
    run: BackfillRun,
    queue: string,
    maxAttempts: number,
  ): Promise<void> => {
    await driver.enqueue({
      id: run.jobId,
      name: backfillJobName(run.name),
      queue,
      maxAttempts,
      payload: { runId: run.runId },
      ...(run.tenantId === undefined ? {} : { tenantId: run.tenantId }),
    });
  };

  /** Moves the run, or answers it when it already stands at `to`; a final run refuses. */
  const steer = async (
    runId: string,
    options: BackfillByIdOptions | undefined,
    from: readonly BackfillStatus[],
    to: BackfillStatus,
  ): Promise<BackfillRun> => {
    const change = await ledger.transition(runId, { ...options, from, to });
    if (change === undefined) throw backfillNotFound(runId);
    if (change.changed || change.run.status === to) return change.run;
    throw notActive(change.run);
  };

  /** Hands the run to a new runner job, on the queue its current one is (or was) in. */
  const handOver = async (run: BackfillRun, options: BackfillByIdOptions | undefined) => {
    const previous = await driver.get(run.jobId);
    const change = await ledger.transition(run.runId, {
      ...options,
      from: [run.status],
      to: 'running',
      jobId: randomUUID(),
    });
    if (change === undefined) throw backfillNotFound(run.runId);
    // The new runner goes where its run's last one was, allowed as many attempts.
    if (change.changed) {
      await enqueueRunner(
        change.run,
        previous?.queue ?? DEFAULT_QUEUE,
        previous?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      );
    }
    return change;
  };

  return {
    async start(backfill, options = {}) {
      const byName = typeof backfill === 'string';
      const name = byName ? backfill : backfill.backfill.name;
      // Screened before the run is stored: a refused enqueue would leave it failed.
      const maxAttempts = byName
        ? screenMaxAttempts(options.maxAttempts)
        : backfill.retry.maxAttempts;
      const started = await ledger.start({
        runId: options.runId ?? randomUUID(),
        jobId: randomUUID(),
        name,
        ...(options.tenantId === undefined ? {} : { tenantId: options.tenantId }),
        ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
        maxActive: byName ? (options.concurrency ?? 1) : backfill.backfill.concurrency,
      });
      if (!started.started) {
        throw new BerthError({
          code: 'BACKFILL_RUNNING',
          detail: `backfill ${name} already has ${started.active.length} run(s) going`,
          meta: { name, active: started.active.map((run) => run.runId) },
        });
      }
      const queue = byName ? (options.queue ?? DEFAULT_QUEUE) : backfill.queue;
      try {
        await enqueueRunner(started.run, queue, maxAttempts);
      } catch (error) {
        // A run no job drives would read `running` forever; say what happened instead.
        await ledger
          .transition(started.run.runId, {
            from: ['running'],
            to: 'failed',
            error: `its runner job could not be enqueued: ${String(error)}`,
          })
          .catch(() => undefined);
        throw error;
      }
      return started.run;
    },
    pause: (runId, options) => steer(runId, options, ['running'], 'paused'),
    cancel: (runId, options) => steer(runId, options, ['running', 'paused'], 'cancelled'),
    async resume(runId, options) {
      const run = await ledger.get(runId, options);
      if (run === undefined) throw backfillNotFound(runId);
      if (run.status === 'running') {
        const runner = await driver.get(run.jobId);
        if (runner !== undefined && LIVE_STATES.has(runner.state)) return run;
      } else if (run.status !== 'paused') {
        throw notActive(run);
      }
      const change = await handOver(run, options);
      // A racing pause, resume or cancel moved it first: answer where it now stands.
      return change.run;
    },
    get: (runId, options) => ledger.get(runId, options),
    list: (options) => ledger.list(options),
  };
}

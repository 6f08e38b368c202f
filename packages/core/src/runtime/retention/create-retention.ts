import type { Driver } from '../../contract/driver.js';
import { DEFAULT_PURGE_LIMIT, MAX_PURGE_LIMIT } from '../../contract/limits.js';
import type { JobState } from '../../contract/states.js';
import { describeReceived } from '../../errors/received.js';
import { configInvalid } from '../../errors/refusals.js';
import {
  configDriver,
  configLogger,
  configObject,
  configuring,
} from '../../internal/config-screen.js';
import type { BackgroundLogger } from '../background-logger.js';
import { silentLogger } from '../background-logger.js';
import { createSerialLoop } from '../serial-loop.js';
import type {
  Retention,
  RetentionKeep,
  RetentionOptions,
  RetentionSweep,
} from './retention-types.js';

const KEPT_STATES = ['completed', 'failed', 'dead', 'cancelled'] as const satisfies readonly (
  | keyof RetentionKeep
  | JobState
)[];

/** States with the same keep go in one purge call: `[keepMs, states]`, in state order. */
function purgePlan(given: unknown): readonly (readonly [number, readonly JobState[]])[] {
  const keep = configObject('keep', given, EXAMPLE) as RetentionKeep;
  const byKeep = new Map<number, JobState[]>();
  for (const state of KEPT_STATES) {
    const ms = keep[state];
    if (ms === undefined) continue;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      throw configInvalid({
        option: `keep.${state}`,
        reason: `is ${describeReceived(ms)}; it must be a finite number of ms >= 0`,
        allowed: 'must be a finite number of ms >= 0 (how long a settled job is kept)',
        example: `createRetention({ driver, intervalMs: 60_000, keep: { ${state}: 86_400_000 } })`,
      });
    }
    const states = byKeep.get(ms) ?? [];
    states.push(state);
    byKeep.set(ms, states);
  }
  return [...byKeep.entries()];
}

function screenBatchSize(batchSize: unknown): number {
  if (batchSize === undefined) return DEFAULT_PURGE_LIMIT;
  if (
    typeof batchSize !== 'number' ||
    !Number.isInteger(batchSize) ||
    batchSize < 1 ||
    batchSize > MAX_PURGE_LIMIT
  ) {
    throw configInvalid({
      option: 'batchSize',
      reason: `is ${describeReceived(batchSize)}; it must be an integer from 1 to ${MAX_PURGE_LIMIT}`,
      allowed: `must be an integer from 1 to ${MAX_PURGE_LIMIT} (rows one purge call removes)`,
      example:
        'createRetention({ driver, intervalMs: 60_000, keep: { completed: 86_400_000 }, batchSize: 1_000 })',
    });
  }
  return batchSize;
}

const EXAMPLE_OPTIONS = '{ driver, intervalMs: 60_000, keep: { completed: 86_400_000 } }';
const EXAMPLE = `createRetention(${EXAMPLE_OPTIONS})`;

/** The retention's options, checked (CONFIG_INVALID naming the option) and read once. */
function readOptions(given: RetentionOptions) {
  const options = configObject(
    'options',
    given,
    `const options = ${EXAMPLE_OPTIONS}; createRetention(options)`,
  );
  const driver: Driver = configDriver(options.driver, EXAMPLE);
  const logger: BackgroundLogger =
    configLogger(
      options.logger as BackgroundLogger | undefined,
      ['info', 'warn', 'error'],
      'createRetention({ driver, intervalMs: 60_000, keep: { completed: 86_400_000 }, logger: console })',
    ) ?? silentLogger;
  const eventPurge = options.eventPurge ?? true;
  if (typeof eventPurge !== 'boolean') {
    throw configInvalid({
      option: 'eventPurge',
      reason: `is ${describeReceived(eventPurge)}; it must be true or false`,
      allowed: 'must be true (also remove expired events, the default) or false',
      example:
        'createRetention({ driver, intervalMs: 60_000, keep: { completed: 86_400_000 }, eventPurge: false })',
    });
  }
  const plan = purgePlan(options.keep ?? {});
  const batchSize = screenBatchSize(options.batchSize);
  const { intervalMs } = options;
  if (typeof intervalMs !== 'number' || !Number.isInteger(intervalMs) || intervalMs <= 0) {
    throw configInvalid({
      option: 'intervalMs',
      reason: `is ${describeReceived(intervalMs)}; it must be an integer of ms > 0`,
      allowed: 'must be an integer of ms > 0 (how often a sweep runs)',
      example: EXAMPLE,
    });
  }
  return { driver, logger, eventPurge, plan, batchSize, intervalMs };
}

/** Lets other work (a worker's claims, a stop) run between two purge calls of one sweep. */
const yieldTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Calls `purgeOnce(limit)` until it answers fewer than `limit` (everything matching is gone) or
 * `stopping()` says the retention is being stopped; answers the total removed.
 */
async function purgeInBatches(
  purgeOnce: (limit: number) => Promise<number>,
  limit: number,
  stopping: () => boolean,
): Promise<number> {
  let total = 0;
  for (;;) {
    const count = await purgeOnce(limit);
    total += count;
    if (count < limit || stopping()) return total;
    await yieldTurn();
  }
}

/**
 * A sweep that purges TERMINAL jobs older than their state's keep (and their steps), and
 * expired events, on a schedule. Each sweep is counted and logged.
 */
export function createRetention(options: RetentionOptions): Retention {
  const { driver, logger, eventPurge, plan, batchSize, intervalMs } = configuring(
    'options',
    `const options = ${EXAMPLE_OPTIONS}; createRetention(options)`,
    () => readOptions(options),
  );
  let stopping = false;
  const isStopping = () => stopping;

  const sweep = async (): Promise<RetentionSweep> => {
    const now = driver.clock.now();
    let purged = 0;
    const keepMs: Record<string, number> = {};
    for (const [ms, states] of plan) {
      const olderThan = now - ms;
      const count = await purgeInBatches(
        (limit) => driver.purge({ states, olderThan, limit }),
        batchSize,
        isStopping,
      );
      purged += count;
      for (const state of states) keepMs[state] = ms;
      if (count > 0) logger.info('retention purged jobs', { states, olderThan, count });
    }
    const eventsPurged = eventPurge
      ? await purgeInBatches(
          (limit) => driver.events.purgeExpired({ limit }),
          batchSize,
          isStopping,
        )
      : 0;
    // pg keeps lifecycle events until trimmed; the other drivers trim as they write and answer 0.
    const lifecycleTrimmed = await purgeInBatches(
      (limit) => driver.lifecycle.trim({ limit }),
      batchSize,
      isStopping,
    );
    logger.info('retention sweep', { purged, eventsPurged, lifecycleTrimmed, keepMs });
    return { purged, eventsPurged, lifecycleTrimmed };
  };

  // Sweeps never overlap: one asked for while another runs starts after it.
  const loop = createSerialLoop({
    clock: driver.clock,
    intervalMs,
    task: sweep,
    onError: (error) => logger.error('retention sweep failed', { error }),
  });

  return {
    start: loop.start,
    // A sweep in flight ends after its current purge call rather than draining the backlog.
    stop: async () => {
      stopping = true;
      try {
        await loop.stop();
      } finally {
        stopping = false;
      }
    },
    runOnce: loop.runNow,
  };
}

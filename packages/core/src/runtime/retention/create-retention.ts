import type { JobState } from '../../contract/states.js';
import { configInvalid } from '../../errors/refusals.js';
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
function purgePlan(keep: RetentionKeep): readonly (readonly [number, readonly JobState[]])[] {
  const byKeep = new Map<number, JobState[]>();
  for (const state of KEPT_STATES) {
    const ms = keep[state];
    if (ms === undefined) continue;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      throw configInvalid({
        option: `keep.${state}`,
        reason: `is ${String(ms)}; it must be a finite number of ms >= 0`,
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

/**
 * A sweep that purges TERMINAL jobs older than their state's keep (and their steps), and
 * expired events, on a schedule. Each sweep is counted and logged.
 */
export function createRetention(options: RetentionOptions): Retention {
  const { driver } = options;
  const logger = options.logger ?? silentLogger;
  const eventPurge = options.eventPurge ?? true;
  const plan = purgePlan(options.keep ?? {});
  if (!Number.isInteger(options.intervalMs) || options.intervalMs <= 0) {
    throw configInvalid({
      option: 'intervalMs',
      reason: `is ${String(options.intervalMs)}; it must be an integer of ms > 0`,
      allowed: 'must be an integer of ms > 0 (how often a sweep runs)',
      example: 'createRetention({ driver, intervalMs: 60_000, keep: { completed: 86_400_000 } })',
    });
  }

  const sweep = async (): Promise<RetentionSweep> => {
    const now = driver.clock.now();
    let purged = 0;
    const keepMs: Record<string, number> = {};
    for (const [ms, states] of plan) {
      const count = await driver.purge({ states, olderThan: now - ms });
      purged += count;
      for (const state of states) keepMs[state] = ms;
      if (count > 0) logger.info('retention purged jobs', { states, olderThan: now - ms, count });
    }
    const eventsPurged = eventPurge ? await driver.events.purgeExpired() : 0;
    logger.info('retention sweep', { purged, eventsPurged, keepMs });
    return { purged, eventsPurged };
  };

  // Sweeps never overlap: one asked for while another runs starts after it.
  const loop = createSerialLoop({
    clock: driver.clock,
    intervalMs: options.intervalMs,
    task: sweep,
    onError: (error) => logger.error('retention sweep failed', { error }),
  });

  return { start: loop.start, stop: loop.stop, runOnce: loop.runNow };
}

import { type CronSlots, cronProblem, cronSlots } from '../../internal/cron.js';
import { refuseSchedule } from './schedule-refusals.js';

export type { CronSlots };

/**
 * Parses schedule `at`'s `cron` in `timezone` (default UTC); a bad expression or zone is
 * CONFIG_INVALID naming `<at>.cron`.
 */
export function parseCron(at: string, cron: string, timezone: string | undefined): CronSlots {
  const problem = cronProblem(cron, timezone);
  if (problem !== undefined) {
    throw refuseSchedule(at, problem.field, problem.reason, problem.allowed);
  }
  return cronSlots(cron, timezone);
}

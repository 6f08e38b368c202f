import { CronExpressionParser } from 'cron-parser';
import { configInvalid } from '../../errors/refusals.js';

/** One parsed cron expression: the slots it names, in a timezone. */
export interface CronSlots {
  /** Slots in `(after, upTo]`, oldest first, at most `cap` of them (the latest ones kept). */
  between(after: number, upTo: number, cap: number): number[];
  /** The latest `count` slots at or before `upTo`, oldest first. */
  latest(upTo: number, count: number): number[];
}

const describe = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** Parses `cron` in `timezone` (default UTC); a bad expression or zone is CONFIG_INVALID. */
export function parseCron(option: string, cron: string, timezone: string | undefined): CronSlots {
  if (typeof cron !== 'string' || cron.trim().length === 0) {
    throw configInvalid(option, 'must be a cron expression');
  }
  const tz = timezone ?? 'UTC';
  const parse = (currentDate: number) => CronExpressionParser.parse(cron, { currentDate, tz });
  try {
    // Parsing checks the fields; one step checks the zone and that some slot exists.
    parse(Date.UTC(2000, 0, 1)).next();
  } catch (error) {
    throw configInvalid(
      timezone === undefined ? option : `${option} (timezone ${JSON.stringify(timezone)})`,
      `is not a valid cron schedule: ${describe(error)}`,
    );
  }
  return {
    between(after, upTo, cap) {
      const slots: number[] = [];
      const expression = parse(after);
      for (;;) {
        const slot = expression.next().getTime();
        if (slot > upTo) break;
        slots.push(slot);
        if (slots.length > cap) slots.shift();
      }
      return slots;
    },
    latest(upTo, count) {
      const slots: number[] = [];
      // prev() answers slots strictly before its start; one ms past `upTo` includes it.
      const expression = parse(upTo + 1);
      while (slots.length < count && expression.hasPrev()) {
        slots.unshift(expression.prev().getTime());
      }
      return slots;
    },
  };
}

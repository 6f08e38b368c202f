import { CronExpressionParser } from 'cron-parser';
import { refuseSchedule } from './schedule-refusals.js';

/** One parsed cron expression: the slots it names, in a timezone. */
export interface CronSlots {
  /** Slots in `(after, upTo]`, oldest first, at most `cap` of them (the latest ones kept). */
  between(after: number, upTo: number, cap: number): number[];
  /** The latest `count` slots at or before `upTo`, oldest first. */
  latest(upTo: number, count: number): number[];
}

const describe = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

const CRON_ALLOWED =
  'must be a cron expression of 5 fields (minute hour day month weekday) or 6 with seconds first';

/**
 * Parses schedule `at`'s `cron` in `timezone` (default UTC); a bad expression or zone is
 * CONFIG_INVALID naming `<at>.cron` or `<at>.timezone`.
 */
export function parseCron(at: string, cron: string, timezone: string | undefined): CronSlots {
  if (typeof cron !== 'string' || cron.trim().length === 0) {
    throw refuseSchedule(at, 'cron', 'is empty or not a string', CRON_ALLOWED);
  }
  // cron-parser reads 4 or 7 fields too, shifting them into other positions; a 4-field
  // '*/5 * * *' would run at a time nobody wrote.
  const fields = cron.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6) {
    throw refuseSchedule(
      at,
      'cron',
      `${JSON.stringify(cron)} has ${fields} field${fields === 1 ? '' : 's'}`,
      CRON_ALLOWED,
    );
  }
  const tz = timezone ?? 'UTC';
  const parse = (currentDate: number) => CronExpressionParser.parse(cron, { currentDate, tz });
  try {
    // Parsing checks the fields; one step checks the zone and that some slot exists.
    parse(Date.UTC(2000, 0, 1)).next();
  } catch (error) {
    const reason = `${JSON.stringify(cron)} is not a valid cron schedule${
      timezone === undefined ? '' : ` in timezone ${JSON.stringify(timezone)}`
    }: ${describe(error)}`;
    throw refuseSchedule(
      at,
      'cron',
      reason,
      `${CRON_ALLOWED}, with timezone an IANA zone such as 'Europe/Berlin' (default UTC)`,
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

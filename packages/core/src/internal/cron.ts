import { CronExpressionParser } from 'cron-parser';

/** One parsed cron expression: the slots it names, in a timezone. */
export interface CronSlots {
  /** Slots in `(after, upTo]`, oldest first, at most `cap` of them (the latest ones kept). */
  between(after: number, upTo: number, cap: number): number[];
  /** The latest `count` slots at or before `upTo`, oldest first. */
  latest(upTo: number, count: number): number[];
  /** The first slot after `after`. */
  next(after: number): number;
}

/** What is wrong with a cron expression in a zone: the field to name and why. */
export interface CronProblem {
  readonly field: 'cron';
  readonly reason: string;
  /** What the field must be. */
  readonly allowed: string;
}

export const CRON_ALLOWED =
  'must be a cron expression of 5 fields (minute hour day month weekday) or 6 with seconds first';

const describe = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

const parser = (cron: string, timezone: string | undefined) => (currentDate: number) =>
  CronExpressionParser.parse(cron, { currentDate, tz: timezone ?? 'UTC' });

/** Undefined when `cron` names slots in `timezone` (default UTC); otherwise what is wrong. */
export function cronProblem(cron: unknown, timezone: string | undefined): CronProblem | undefined {
  if (typeof cron !== 'string' || cron.trim().length === 0) {
    return { field: 'cron', reason: 'is empty or not a string', allowed: CRON_ALLOWED };
  }
  // cron-parser reads 4 or 7 fields too, shifting them into other positions; a 4-field
  // '*/5 * * *' would run at a time nobody wrote.
  const fields = cron.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6) {
    return {
      field: 'cron',
      reason: `${JSON.stringify(cron)} has ${fields} field${fields === 1 ? '' : 's'}`,
      allowed: CRON_ALLOWED,
    };
  }
  try {
    // Parsing checks the fields; one step checks the zone and that some slot exists.
    parser(cron, timezone)(Date.UTC(2000, 0, 1)).next();
  } catch (error) {
    return {
      field: 'cron',
      reason: `${JSON.stringify(cron)} is not a valid cron schedule${
        timezone === undefined ? '' : ` in timezone ${JSON.stringify(timezone)}`
      }: ${describe(error)}`,
      allowed: `${CRON_ALLOWED}, with timezone an IANA zone such as 'Europe/Berlin' (default UTC)`,
    };
  }
  return undefined;
}

/** The slots of an expression `cronProblem` found nothing wrong with. */
export function cronSlots(cron: string, timezone: string | undefined): CronSlots {
  const parse = parser(cron, timezone);
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
    next: (after) => parse(after).next().getTime(),
  };
}

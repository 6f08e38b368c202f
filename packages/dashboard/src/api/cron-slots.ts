import { CronExpressionParser } from 'cron-parser';

/** Upcoming slots shown per schedule, in code or stored. */
export const NEXT_SLOTS = 3;

/** `count` slots of `cron` in `timezone` after `after` (epoch ms), oldest first. */
export function slotsAfter(cron: string, timezone: string, after: number, count: number): number[] {
  const ahead = CronExpressionParser.parse(cron, { currentDate: after, tz: timezone });
  return Array.from({ length: count }, () => ahead.next().getTime());
}

/**
 * Absolute times as the dashboard shows them: ISO-like (`2026-06-01 21:00:05 UTC+09:00`), in the
 * browser's time zone, its offset from UTC always written out, so a time read off a screenshot
 * or pasted into a ticket says exactly which moment it was. `timeZone` is for tests.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      ...(timeZone === undefined ? {} : { timeZone }),
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** `GMT+09:00` → `UTC+09:00`; `GMT` or `GMT+00:00` (engines differ) → `UTC`. */
const offsetName = (gmt: string): string =>
  /^GMT([+-]00:00)?$/.test(gmt) ? 'UTC' : gmt.replace(/^GMT/, 'UTC');

/** `2026-06-01 21:00:05 UTC+09:00`: the instant in `timeZone` (default: the browser's). */
export function formatAbsolute(instant: number, timeZone?: string): string {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    parts[part.type] = part.value;
  }
  const { year, month, day, hour, minute, second, timeZoneName = 'GMT' } = parts;
  return `${year}-${month}-${day} ${hour}:${minute}:${second} ${offsetName(timeZoneName)}`;
}

/** The browser's time zone by its IANA name (`Europe/Berlin`), as the page names it. */
export function browserTimeZone(timeZone?: string): string {
  return formatterFor(timeZone).resolvedOptions().timeZone;
}

/** `21:00`: the hour and minute of `formatAbsolute`, for the end of a range it starts. */
export function formatAbsoluteClock(instant: number, timeZone?: string): string {
  return formatAbsolute(instant, timeZone).slice(11, 16);
}

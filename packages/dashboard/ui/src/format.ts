const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export const formatInstant = (instant: number): string => absolute.format(new Date(instant));

/** `4 s`, `12 min`, `3 h`, `2 d`. */
export function formatDuration(ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} d`;
}

/** `3 min ago` or `in 5 s`, against the browser's clock. */
export function formatRelative(instant: number, now = Date.now()): string {
  const delta = instant - now;
  if (Math.abs(delta) < 1000) return 'now';
  return delta < 0 ? `${formatDuration(delta)} ago` : `in ${formatDuration(delta)}`;
}

export function formatJson(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(value, null, 2) ?? String(value);
}

import { browserTimeZone, formatAbsolute } from '../absolute-time';

/** Names the zone every absolute time on the page is written in: the browser's. */
export function TimeZoneNote() {
  const offset = formatAbsolute(Date.now()).split(' ')[2] ?? 'UTC';
  return (
    <footer class="time-zone-note muted small" data-testid="time-zone-note">
      Times are shown in {browserTimeZone()} ({offset}), this browser's time zone, with how long ago
      or ahead each is.
    </footer>
  );
}

import { browserTimeZone, formatAbsolute } from '../absolute-time';
import { formatDuration } from '../format';
import './times.css';

/**
 * How long something has waited (`7 min`) and, beside it, the absolute time it started waiting:
 * `now` (the server's clock when it answered) minus the age.
 */
export function Age({ ms, now }: { readonly ms: number; readonly now: number }) {
  const since = now - ms;
  return (
    <span class="age">
      {formatDuration(ms)}{' '}
      <span class="relative">
        (since{' '}
        <time dateTime={new Date(since).toISOString()} title={browserTimeZone()}>
          {formatAbsolute(since)}
        </time>
        )
      </span>
    </span>
  );
}

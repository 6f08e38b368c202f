import { browserTimeZone, formatAbsolute } from '../absolute-time';
import './times.css';
import { formatRelative } from '../format';

/**
 * A moment as its absolute time (ISO-like, in the browser's time zone with its UTC offset; the
 * zone's name on hover) and, beside it, how long ago or ahead it is.
 */
export function Instant({ at }: { readonly at: number | undefined | null }) {
  if (at === undefined || at === null) return <span class="muted">—</span>;
  const relative = formatRelative(at);
  return (
    <span class="instant">
      <time dateTime={new Date(at).toISOString()} title={`${browserTimeZone()} · ${relative}`}>
        {formatAbsolute(at)}
      </time>{' '}
      <span class="relative">({relative})</span>
    </span>
  );
}

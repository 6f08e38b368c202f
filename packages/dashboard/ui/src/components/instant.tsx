import { formatInstant, formatRelative } from '../format';

/** A moment shown relative to now, with the full date and time on hover. */
export function Instant({ at }: { readonly at: number | undefined | null }) {
  if (at === undefined || at === null) return <span class="muted">—</span>;
  const date = new Date(at);
  return (
    <time dateTime={date.toISOString()} title={formatInstant(at)}>
      {formatRelative(at)}
    </time>
  );
}

import { formatAbsolute, formatAbsoluteClock } from '../absolute-time';

interface ChartProps {
  readonly minuteStarts: readonly number[];
  readonly completed: readonly number[];
  readonly failed: readonly number[];
  /** A sparkline (no axes, no labels) for a table cell. */
  readonly small?: boolean;
  readonly label: string;
}

const total = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0);

/**
 * Completed (up) and failed (down) per minute as bars, drawn in SVG by the page itself: no chart
 * library, nothing fetched. Its text alternative gives the hour's totals.
 */
export function ThroughputChart(props: ChartProps) {
  const { minuteStarts, completed, failed, small } = props;
  const width = small ? 120 : 600;
  const height = small ? 28 : 140;
  const axis = small ? height * 0.7 : height * 0.72;
  const peak = Math.max(1, ...completed, ...failed);
  const step = width / Math.max(1, minuteStarts.length);
  const bar = Math.max(1, step - (small ? 0.5 : 2));
  const up = (value: number) => (value / peak) * (axis - 2);
  const down = (value: number) => (value / peak) * (height - axis - 2);
  const summary = `${props.label}: ${total(completed)} completed and ${total(failed)} failed in the last hour`;
  const first = minuteStarts[0];
  const last = minuteStarts[minuteStarts.length - 1];
  return (
    <figure class={small ? 'chart small' : 'chart'}>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={summary}
        preserveAspectRatio="none"
      >
        <title>{summary}</title>
        <line x1="0" x2={width} y1={axis} y2={axis} class="axis" />
        {minuteStarts.map((minute, index) => {
          const done = completed[index] ?? 0;
          const bad = failed[index] ?? 0;
          const x = index * step;
          return (
            <g key={minute}>
              {done > 0 ? (
                <rect class="bar-completed" x={x} y={axis - up(done)} width={bar} height={up(done)}>
                  <title>{`${formatAbsolute(minute)}: ${done} completed`}</title>
                </rect>
              ) : null}
              {bad > 0 ? (
                <rect class="bar-failed" x={x} y={axis} width={bar} height={down(bad)}>
                  <title>{`${formatAbsolute(minute)}: ${bad} failed`}</title>
                </rect>
              ) : null}
            </g>
          );
        })}
      </svg>
      {small || first === undefined || last === undefined ? null : (
        <figcaption>
          <span class="legend completed">completed</span>
          <span class="legend failed">failed or dead</span>
          <span class="muted">
            <time dateTime={new Date(first).toISOString()}>{formatAbsolute(first)}</time> –{' '}
            {formatAbsoluteClock(last)}, per minute (peak {peak})
          </span>
        </figcaption>
      )}
    </figure>
  );
}

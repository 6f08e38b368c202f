/** A span as its two largest units: `45s`, `3m 20s`, `2h 5m`, `6d 4h`. */
export function formatSpan(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1_000) return `${Math.round(abs)}ms`;
  const units: readonly [string, number][] = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
  ];
  const parts: string[] = [];
  let rest = abs;
  for (const [unit, size] of units) {
    const count = Math.floor(rest / size);
    if (count > 0 || parts.length > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
    if (parts.length === 2) break;
  }
  return parts.filter((part) => !part.startsWith('0')).join(' ');
}

/** An instant relative to `now`: `3m 20s ago`, `in 10s`. */
export function formatRelative(at: number, now: number): string {
  return at <= now ? `${formatSpan(now - at)} ago` : `in ${formatSpan(at - now)}`;
}

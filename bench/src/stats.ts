/** A figure over the rounds: median with min and max, and how many rounds gave it. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly n: number;
}

/** The value at fraction `p` (0..1) of sorted values, by nearest rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function spread(values: readonly (number | undefined)[]): Spread | undefined {
  const present = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  if (present.length === 0) return undefined;
  const sorted = [...present].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median = Number.isInteger(middle)
    ? ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
    : (sorted[Math.floor(middle)] ?? 0);
  return { median, min: sorted[0] ?? 0, max: sorted.at(-1) ?? 0, n: sorted.length };
}

export const MINUTE_MS = 60_000;
/** The dashboard chart's window: the last hour, one bucket a minute. */
export const WINDOW_MINUTES = 60;

export const minuteStart = (instant: number): number => instant - (instant % MINUTE_MS);

/** The starts of the `count` minutes ending with the minute of `now`, oldest first. */
export function windowMinutes(now: number, count = WINDOW_MINUTES): number[] {
  const last = minuteStart(now);
  return Array.from({ length: count }, (_, index) => last - (count - 1 - index) * MINUTE_MS);
}

/** Per-minute counts of one series, keyed by minute start. */
export class MinuteCounts {
  readonly #counts = new Map<number, number>();

  add(instant: number, amount: number): void {
    if (amount <= 0) return;
    const minute = minuteStart(instant);
    this.#counts.set(minute, (this.#counts.get(minute) ?? 0) + amount);
  }

  /** Drops minutes before `oldest`, so memory stays one window per series. */
  prune(oldest: number): void {
    for (const minute of this.#counts.keys()) if (minute < oldest) this.#counts.delete(minute);
  }

  over(minutes: readonly number[]): number[] {
    return minutes.map((minute) => this.#counts.get(minute) ?? 0);
  }
}

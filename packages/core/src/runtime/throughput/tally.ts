import type { JobRecord } from '../../contract/records.js';
import type { JobState } from '../../contract/states.js';
import { MinuteCounts } from './minutes.js';

/** Jobs that finished per minute, oldest minute first, aligned with `minuteStarts`. */
export interface SettledSeries {
  readonly completed: number[];
  /** `failed` and `dead` together: the attempts that gave up. */
  readonly failed: number[];
}

/**
 * Buckets settled rows by the minute of their `finishedAt`, per queue and in total: `completed`
 * in one series, `failed` and `dead` in the other; other states, and rows that finished before
 * the window, add nothing. Read from rows (`list`), so it needs no history table.
 */
export class SettledTally {
  readonly #windowStart: number;
  readonly #queues = new Map<string, { completed: MinuteCounts; failed: MinuteCounts }>();
  readonly #total = { completed: new MinuteCounts(), failed: new MinuteCounts() };

  constructor(readonly minuteStarts: readonly number[]) {
    this.#windowStart = minuteStarts[0] ?? Number.POSITIVE_INFINITY;
  }

  add(state: JobState, job: JobRecord): void {
    const finished = job.finishedAt;
    if (finished === undefined || finished < this.#windowStart) return;
    const series =
      state === 'completed'
        ? 'completed'
        : state === 'failed' || state === 'dead'
          ? 'failed'
          : undefined;
    if (series === undefined) return;
    let queue = this.#queues.get(job.queue);
    if (queue === undefined) {
      queue = { completed: new MinuteCounts(), failed: new MinuteCounts() };
      this.#queues.set(job.queue, queue);
    }
    queue[series].add(finished, 1);
    this.#total[series].add(finished, 1);
  }

  /** Per queue seen, sorted by queue name. */
  perQueue(): ReadonlyMap<string, SettledSeries> {
    const names = [...this.#queues.keys()].sort();
    return new Map(
      names.map((name) => {
        const queue = this.#queues.get(name);
        return [name, this.#over(queue ?? this.#total)];
      }),
    );
  }

  total(): SettledSeries {
    return this.#over(this.#total);
  }

  #over(counts: { completed: MinuteCounts; failed: MinuteCounts }): SettledSeries {
    return {
      completed: counts.completed.over(this.minuteStarts),
      failed: counts.failed.over(this.minuteStarts),
    };
  }
}

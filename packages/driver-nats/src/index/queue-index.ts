import { JOB_STATES, type JobState, type QueueStats } from '@berth/core/driver';
import { claimOrder, leaseOrder, listOrder, probe, type Row, runAtOrder } from './row.js';
import { SortedList } from './sorted-list.js';

type Waiting = 'ready' | 'delayed' | 'suspended';

const isWaiting = (state: JobState): state is Waiting =>
  state === 'ready' || state === 'delayed' || state === 'suspended';

/** Every row `runAt <= now` sorts before this probe, every later one after. */
const dueBound = (now: number): Row => probe({ runAt: now, seq: Number.MAX_SAFE_INTEGER });

/**
 * One queue's rows. Rows waiting to run (ready, delayed, suspended) sit in one list per priority
 * ordered by (runAt, seq): the due ones are each list's prefix, so a claim reads them in claim
 * order without ever touching a row that is not due, and nothing moves as time passes. Running
 * rows sit by lease expiry until a claim sees them lapse; then they move, once, into claim order.
 */
export class QueueIndex {
  readonly list = new SortedList<Row>(listOrder);
  /** Rows per STORED state. */
  readonly counts: Record<JobState, number> = Object.fromEntries(
    JOB_STATES.map((state) => [state, 0]),
  ) as Record<JobState, number>;
  /** Waiting rows per priority and job name, each by (runAt, seq). */
  private readonly byPriority = new Map<number, Map<string, SortedList<Row>>>();
  /** Priorities holding waiting rows, highest first. */
  private priorities: number[] = [];
  private readonly byRunAt: Record<Waiting, SortedList<Row>> = {
    ready: new SortedList(runAtOrder),
    delayed: new SortedList(runAtOrder),
    suspended: new SortedList(runAtOrder),
  };
  private readonly leases = new SortedList<Row>(leaseOrder);
  private readonly lapsedDue = new SortedList<Row>(claimOrder);
  private readonly lapsedSpent = new SortedList<Row>(claimOrder);

  /** The latest instant this queue's leases were checked against: rows lapsed by then sit in claim order. */
  leaseClock = Number.NEGATIVE_INFINITY;

  constructor(readonly name: string) {}

  get size(): number {
    return this.list.size;
  }

  add(row: Row): void {
    const { state, priority } = row.job;
    this.list.insert(row);
    this.counts[state] += 1;
    if (isWaiting(state)) {
      let names = this.byPriority.get(priority);
      if (names === undefined) {
        names = new Map();
        this.byPriority.set(priority, names);
        this.priorities = [...this.byPriority.keys()].sort((a, b) => b - a);
      }
      let rows = names.get(row.job.name);
      if (rows === undefined) {
        rows = new SortedList(runAtOrder);
        names.set(row.job.name, rows);
      }
      rows.insert(row);
      this.byRunAt[state].insert(row);
    } else if (state === 'running') {
      if (!row.lapsed) this.leases.insert(row);
      else if (row.job.attempts >= row.job.maxAttempts) this.lapsedSpent.insert(row);
      else this.lapsedDue.insert(row);
    }
  }

  remove(row: Row): void {
    const { state, priority } = row.job;
    this.list.delete(row);
    this.counts[state] -= 1;
    if (isWaiting(state)) {
      const names = this.byPriority.get(priority);
      const rows = names?.get(row.job.name);
      rows?.delete(row);
      if (names !== undefined && rows !== undefined && rows.size === 0) {
        names.delete(row.job.name);
        if (names.size === 0) {
          this.byPriority.delete(priority);
          this.priorities = this.priorities.filter((value) => value !== priority);
        }
      }
      this.byRunAt[state].delete(row);
    } else if (state === 'running') {
      if (!row.lapsed) this.leases.delete(row);
      else if (row.job.attempts >= row.job.maxAttempts) this.lapsedSpent.delete(row);
      else this.lapsedDue.delete(row);
    }
  }

  /** Running rows whose lease lapsed by `now`, not yet seen lapsing (the caller re-places them). */
  lapsing(now: number): Row[] {
    const out: Row[] = [];
    for (const row of this.leases.ascending()) {
      if ((row.job.visibleAt ?? 0) > now) break;
      out.push(row);
    }
    return out;
  }

  /**
   * Up to `limit` claimable rows in claim order: due waiting rows and lapsed leases, of `names`
   * only when given. Waiting rows are read from the lists of those names alone, so rows of other
   * names cost nothing.
   */
  claimable(
    now: number,
    limit: number,
    skip: ReadonlySet<string>,
    names: readonly string[] | undefined,
  ): Row[] {
    const waiting: Row[] = [];
    for (const priority of this.priorities) {
      const want = limit - waiting.length;
      if (want <= 0) break;
      const byName = this.byPriority.get(priority);
      const lists =
        names === undefined
          ? [...(byName?.values() ?? [])]
          : names.map((name) => byName?.get(name));
      const found: Row[] = [];
      for (const list of lists) {
        let taken = 0;
        for (const row of list?.ascending() ?? []) {
          if (row.runAt > now || taken >= want) break;
          if (skip.has(row.id)) continue;
          found.push(row);
          taken += 1;
        }
      }
      waiting.push(...(lists.length === 1 ? found : found.sort(runAtOrder).slice(0, want)));
    }
    const lapsed = pick(this.lapsedDue, limit, skip, names);
    return lapsed.length === 0 ? waiting : [...waiting, ...lapsed].sort(claimOrder).slice(0, limit);
  }

  /** Up to `limit` lapsed rows on their final attempt (of `names` when given), in claim order. */
  spent(limit: number, skip: ReadonlySet<string>, names: readonly string[] | undefined): Row[] {
    return pick(this.lapsedSpent, limit, skip, names);
  }

  /** Counts per effective state (a due delayed or suspended row reads ready) and the oldest ready age. */
  stats(now: number): QueueStats {
    const counts = { ...this.counts };
    const bound = dueBound(now);
    let oldest = this.byRunAt.ready.first()?.runAt;
    for (const state of ['delayed', 'suspended'] as const) {
      const due = this.byRunAt[state].countBefore(bound);
      counts[state] -= due;
      counts.ready += due;
      const first = this.byRunAt[state].first();
      if (
        first !== undefined &&
        first.runAt <= now &&
        (oldest === undefined || first.runAt < oldest)
      ) {
        oldest = first.runAt;
      }
    }
    return {
      queue: this.name,
      counts,
      oldestReadyAgeMs: oldest === undefined ? null : now - oldest,
    };
  }
}

/** Up to `limit` rows of a claim-ordered list, leaving out `skip` and names not asked for. */
function pick(
  list: SortedList<Row>,
  limit: number,
  skip: ReadonlySet<string>,
  names: readonly string[] | undefined,
): Row[] {
  const out: Row[] = [];
  for (const row of list.ascending()) {
    if (out.length >= limit) break;
    if (skip.has(row.id) || (names !== undefined && !names.includes(row.job.name))) continue;
    out.push(row);
  }
  return out;
}

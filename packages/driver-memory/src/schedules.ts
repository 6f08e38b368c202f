import type {
  Clock,
  ScheduleDueRequest,
  ScheduleListRequest,
  SchedulePosition,
  ScheduleRecord,
  ScheduleWrite,
} from '@berth/core/driver';

/** `(tenantId, name)` as one map key; JSON keeps the parts apart. */
const keyOf = (name: string, tenantId: string | undefined): string =>
  JSON.stringify([tenantId ?? null, name]);

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** List order: name in code-unit order, then tenant, none first. */
const byPosition = (a: SchedulePosition, b: SchedulePosition): number =>
  compareText(a.name, b.name) || compareText(a.tenantId ?? '', b.tenantId ?? '');

/** Due order: `nextAt`, then list order. */
const byDue = (a: ScheduleRecord, b: ScheduleRecord): number =>
  a.nextAt - b.nextAt || byPosition(a, b);

/** The index in sorted `items` where `item` goes (or is). */
function place<T, U>(items: readonly T[], item: U, compare: (a: T, b: U) => number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const at = items[middle] as T;
    if (compare(at, item) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A schedule as answered: its payload copied, so a caller that edits it never edits the store. */
const answer = (schedule: ScheduleRecord): ScheduleRecord => ({
  ...schedule,
  payload: structuredClone(schedule.payload),
});

/**
 * Stored schedules: a map by `(tenantId, name)`, plus two sorted arrays — every schedule in list
 * order, and the unpaused ones in due order — so `list` and `due` read only what they answer.
 * Every call is one synchronous change.
 */
export class ScheduleTable {
  private readonly byKey = new Map<string, ScheduleRecord>();
  private readonly listed: ScheduleRecord[] = [];
  private readonly pending: ScheduleRecord[] = [];

  constructor(private readonly clock: Clock) {}

  get(name: string, tenantId: string | undefined): ScheduleRecord | undefined {
    const stored = this.byKey.get(keyOf(name, tenantId));
    return stored === undefined ? undefined : answer(stored);
  }

  put(write: ScheduleWrite, revision: number): ScheduleRecord | undefined {
    const key = keyOf(write.name, write.tenantId);
    const stored = this.byKey.get(key);
    if ((stored?.revision ?? 0) !== revision) return undefined;
    const now = this.clock.now();
    const next: ScheduleRecord = {
      ...write,
      payload: structuredClone(write.payload),
      revision: revision + 1,
      createdAt: stored?.createdAt ?? now,
      updatedAt: now,
    };
    if (stored !== undefined) this.unindex(stored);
    this.byKey.set(key, next);
    this.listed.splice(place(this.listed, next, byPosition), 0, next);
    if (!next.paused) this.pending.splice(place(this.pending, next, byDue), 0, next);
    return answer(next);
  }

  remove(name: string, tenantId: string | undefined, revision: number): boolean {
    const key = keyOf(name, tenantId);
    const stored = this.byKey.get(key);
    if (stored === undefined || stored.revision !== revision) return false;
    this.byKey.delete(key);
    this.unindex(stored);
    return true;
  }

  list(request: ScheduleListRequest): ScheduleRecord[] {
    const { after, tenantId, limit } = request;
    const page: ScheduleRecord[] = [];
    let index = 0;
    if (after !== undefined) {
      index = place(this.listed, after, byPosition);
      const at = this.listed[index];
      if (at !== undefined && byPosition(at, after) === 0) index += 1;
    }
    // A tenant's filter walks past other tenants' schedules (memory only: a walk is a loop).
    for (; index < this.listed.length && page.length < limit; index += 1) {
      const schedule = this.listed[index] as ScheduleRecord;
      if (tenantId === undefined || schedule.tenantId === tenantId) page.push(answer(schedule));
    }
    return page;
  }

  due(request: ScheduleDueRequest): ScheduleRecord[] {
    const page: ScheduleRecord[] = [];
    for (const schedule of this.pending) {
      if (schedule.nextAt > request.upTo || page.length === request.limit) break;
      page.push(answer(schedule));
    }
    return page;
  }

  private unindex(stored: ScheduleRecord): void {
    this.listed.splice(place(this.listed, stored, byPosition), 1);
    if (!stored.paused) this.pending.splice(place(this.pending, stored, byDue), 1);
  }
}

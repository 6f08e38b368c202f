import type {
  Json,
  ScheduleDueRequest,
  ScheduleListRequest,
  ScheduleRecord,
} from '@berth/core/driver';
import type { BlobRef } from '../record.js';
import { SortedList } from './sorted-list.js';

/**
 * What a schedule key (`c.<hash>.<hash>` of the jobs bucket) holds: the record, with the
 * contract's `revision` counted here (the key's own revision runs on across a remove and a new
 * create, the contract's starts again at 1). `w` names the write that made the value, so a writer
 * whose answer was lost can tell whether it landed. A payload too large to sit inline is in parts
 * of the aux bucket (`payloadPart`), and then `payload` is absent.
 */
export interface ScheduleDoc extends Omit<ScheduleRecord, 'payload'> {
  readonly payload?: Json;
  readonly payloadPart?: BlobRef;
  readonly w: string;
}

/**
 * What a remove writes over the record (then deletes, leaving a marker): it names its write like
 * a record does, so a remove whose answer was lost can tell whether it landed. Reads as nothing.
 */
export interface ScheduleTombstone {
  readonly name: string;
  readonly tenantId?: string;
  readonly w: string;
  readonly gone: true;
}

export type StoredSchedule = ScheduleDoc | ScheduleTombstone;

export const isLive = (stored: StoredSchedule | undefined): stored is ScheduleDoc =>
  stored !== undefined && !('gone' in stored);

/** A schedule's place in list or due order; a probe (where a walk starts) holds no doc. */
interface Placed {
  readonly name: string;
  readonly tenantId: string | undefined;
  readonly nextAt: number;
  readonly doc?: ScheduleDoc;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** List order: name in code-unit order, then tenant, none first. */
const byPosition = (a: Placed, b: Placed): number =>
  compareText(a.name, b.name) ||
  (a.tenantId === b.tenantId
    ? 0
    : a.tenantId === undefined
      ? -1
      : b.tenantId === undefined
        ? 1
        : compareText(a.tenantId, b.tenantId));

/** Due order: `nextAt`, then list order. */
const byDue = (a: Placed, b: Placed): number => a.nextAt - b.nextAt || byPosition(a, b);

const placed = (doc: ScheduleDoc): Placed => ({
  name: doc.name,
  tenantId: doc.tenantId,
  nextAt: doc.nextAt,
  doc,
});

/**
 * Stored schedules, mirrored from the jobs bucket: by key, every one in list order (and each
 * tenant's apart, so a tenant's list walks only its own), and the unpaused ones in due order.
 * `list` and `due` walk from their start and read only what they answer.
 */
export class ScheduleIndex {
  private readonly byKey = new Map<string, Placed>();
  private readonly listed = new SortedList<Placed>(byPosition);
  private readonly byTenant = new Map<string, SortedList<Placed>>();
  private readonly pending = new SortedList<Placed>(byDue);

  /** A schedule key changed; a tombstone, a delete or a value that is no record removes it. */
  apply(key: string, stored: StoredSchedule | undefined): void {
    const old = this.byKey.get(key);
    if (old !== undefined) {
      this.byKey.delete(key);
      this.listed.delete(old);
      if (old.tenantId !== undefined) this.untenant(old.tenantId, old);
      if (old.doc?.paused === false) this.pending.delete(old);
    }
    if (!isLive(stored) || typeof stored.name !== 'string' || typeof stored.nextAt !== 'number') {
      return;
    }
    const entry = placed(stored);
    this.byKey.set(key, entry);
    this.listed.insert(entry);
    if (entry.tenantId !== undefined) this.tenantList(entry.tenantId).insert(entry);
    if (!stored.paused) this.pending.insert(entry);
  }

  /** Records matching the tenant after `after`, in list order, at most `limit`. */
  list(request: ScheduleListRequest): ScheduleDoc[] {
    const { tenantId, after, limit } = request;
    const source = tenantId === undefined ? this.listed : this.byTenant.get(tenantId);
    const probe: Placed | undefined =
      after === undefined ? undefined : { name: after.name, tenantId: after.tenantId, nextAt: 0 };
    const page: ScheduleDoc[] = [];
    for (const entry of source?.ascending(probe) ?? []) {
      if (page.length === limit) break;
      if (probe !== undefined && byPosition(entry, probe) === 0) continue;
      if (entry.doc !== undefined) page.push(entry.doc);
    }
    return page;
  }

  /** Unpaused records with `nextAt <= upTo`, in due order, at most `limit`. */
  due(request: ScheduleDueRequest): ScheduleDoc[] {
    const page: ScheduleDoc[] = [];
    for (const entry of this.pending.ascending()) {
      if (entry.nextAt > request.upTo || page.length === request.limit) break;
      if (entry.doc !== undefined) page.push(entry.doc);
    }
    return page;
  }

  private untenant(tenantId: string, entry: Placed): void {
    const list = this.byTenant.get(tenantId);
    list?.delete(entry);
    if (list?.size === 0) this.byTenant.delete(tenantId);
  }

  private tenantList(tenantId: string): SortedList<Placed> {
    let list = this.byTenant.get(tenantId);
    if (list === undefined) {
      list = new SortedList(byPosition);
      this.byTenant.set(tenantId, list);
    }
    return list;
  }
}

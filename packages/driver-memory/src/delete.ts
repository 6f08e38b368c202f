import {
  type ByIdOptions,
  type JobRecord,
  jobNotDeletable,
  jobNotFound,
  UNDELETABLE_STATES,
} from '@berth/core/driver';
import { stateAt, toRecord } from './record.js';
import { findRow, removeRow, type Store } from './store.js';

/**
 * Deletes one row that no worker holds, synchronously (this driver's atomicity): `removeRow`
 * drops it from every index, frees its idempotency key, its waiter entry and its steps.
 */
export function deleteJob(store: Store, id: string, options: ByIdOptions): JobRecord {
  const row = findRow(store, id, options.tenantId);
  if (row === undefined) throw jobNotFound(id);
  const now = store.clock.now();
  if (UNDELETABLE_STATES.has(row.state)) throw jobNotDeletable(id, stateAt(row, now));
  const record = toRecord(row, now);
  removeRow(store, row);
  return record;
}

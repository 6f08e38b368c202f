import type { BackfillBackend } from '@berth/core/driver';
import { commitBackfill, transitionBackfill } from './backfill-change.js';
import { listBackfills } from './backfill-list.js';
import { getBackfill } from './backfill-read.js';
import { startBackfill } from './backfill-start.js';
import type { NatsContext } from './context.js';

/**
 * The backfill ledger. ALL runs of one `(name, tenantId)` sit in ONE aux entry
 * (`f.<hash>.<hash>`), and every start, transition and commit is ONE conditional write of it
 * over the revision read: siblings racing see one winner (the others re-read and decide again),
 * and a crash leaves the entry before or after the change, never between. An entry stays
 * bounded: BACKFILL_RUNS_KEPT final runs plus the active ones (a start drops the oldest final
 * runs past it in its own write), large cursors and errors in parts (backfill-heavy.ts).
 * A pointer per run (`r.<runId>`, the holder) is created, create-only, BEFORE the write that
 * stores the run, so calls by id find the entry; a pointer whose entry lacks its run reads as
 * missing (a refused start removes the one it made, a crash between the two writes leaves one).
 * A write whose answer was lost is decided by reading the entry again (backfill-writes.ts).
 * `list` reads the entries a key filter names: as many as `(name, tenant)` pairs, each bounded.
 * The aux bucket is read by key (never through the mirror), so every read sees every landed write.
 */

type On = <A extends unknown[], R>(
  operation: string,
  call: (context: NatsContext, ...args: A) => Promise<R>,
) => (...args: A) => Promise<R>;

/** `DriverBackend.backfills`, each call guarded by the driver's `on`. */
export const backfillBackend = (on: On): BackfillBackend => ({
  start: on('start a backfill', startBackfill),
  get: on('read a backfill', getBackfill),
  transition: on('change a backfill', transitionBackfill),
  commit: on('commit a backfill pass', commitBackfill),
  list: on('list backfills', listBackfills),
});

import {
  type EnqueueResult,
  enqueueIndexDisagrees,
  idTaken,
  jobDuplicate,
  type MarkAdvance,
  type MarkPassed,
  type ScreenedEnqueue,
  timeOrderedUuid,
} from '@berth/core/driver';
import type { OpsContext } from './context.js';
import { insertParams } from './enqueue.js';

interface AdvancingRow {
  readonly id: string | null;
  readonly run_id: string | null;
  readonly hit: 'inserted' | 'id' | 'taken' | 'key' | 'passed';
}

const answer = (row: AdvancingRow, deduped: boolean): EnqueueResult => ({
  id: row.id ?? '',
  runId: row.run_id ?? '',
  deduped,
});

/**
 * `enqueue` with `advanceMark`: one statement (`enqueueAdvancing.insert`) decides the insert and
 * raises the mark in the same transaction. The key holder is found inside it, so there is no
 * seam; a statement that met a writer of the id committed after its snapshot answers no row
 * and is sent once more.
 */
export function enqueueAdvancingOps(context: OpsContext) {
  const { db, sql, clock, channel } = context;

  return async function enqueueAdvancing(
    request: ScreenedEnqueue,
    mark: MarkAdvance,
  ): Promise<EnqueueResult | MarkPassed> {
    const allocatedAt = clock.now();
    const id = request.id ?? timeOrderedUuid(allocatedAt);
    const runId = timeOrderedUuid(allocatedAt);
    await context.hooks.beforeMarkedEnqueue?.();
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const now = clock.now();
      const rows = await db.rows<AdvancingRow>('enqueue', sql.enqueueAdvancing.insert, [
        ...insertParams(request, id, runId, now, channel),
        mark.name,
        mark.value,
        request.onConflict !== 'error',
      ]);
      const hit = (kind: AdvancingRow['hit']) => rows.find((row) => row.hit === kind);
      if (hit('passed') !== undefined) return { markPassed: true };
      const made = hit('inserted');
      if (made !== undefined) return answer(made, false);
      if (hit('taken') !== undefined) throw idTaken();
      const existing = hit('id');
      if (existing !== undefined) return answer(existing, true);
      const holder = hit('key');
      if (holder === undefined) continue;
      if (request.onConflict === 'error') throw jobDuplicate(request, holder.id ?? '');
      return answer(holder, true);
    }
    throw enqueueIndexDisagrees('pg', request.name);
  };
}

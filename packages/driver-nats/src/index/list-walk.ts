import type { JobState, ListPosition, ScreenedList } from '@berth/core/driver';
import { listOrder, probe, type Row, stateOf } from './row.js';
import type { SortedList } from './sorted-list.js';

/** The stored states whose rows can read as `state` (a due delayed or suspended row reads ready). */
export const storedFor = (state: JobState): readonly JobState[] =>
  state === 'ready' ? ['ready', 'delayed', 'suspended'] : [state];

/**
 * A keyset walk over list indexes (each sorted by createdAt, seq): up to `limit + 1` rows matching
 * every filter of the request, from its cursor, merged across the indexes in page order.
 */
export function walkList(
  sources: readonly SortedList<Row>[],
  request: ScreenedList,
  now: number,
): Row[] {
  const want = request.limit + 1;
  const matches = (row: Row) =>
    (request.state === undefined || stateOf(row, now) === request.state) &&
    (request.queue === undefined || row.job.queue === request.queue) &&
    (request.name === undefined || row.job.name === request.name) &&
    (request.tenantId === undefined || row.job.tenantId === request.tenantId);
  const walked = sources.flatMap((source) =>
    walk(source, request.after, request.before, want, matches),
  );
  const sign = request.before === undefined ? -1 : 1;
  return walked.sort((a, b) => sign * listOrder(a, b)).slice(0, want);
}

function walk(
  source: SortedList<Row>,
  after: ListPosition | undefined,
  before: ListPosition | undefined,
  want: number,
  matches: (row: Row) => boolean,
): Row[] {
  const rows: Row[] = [];
  const entries =
    before === undefined
      ? source.descending(after === undefined ? undefined : probe(after))
      : source.ascending(probe({ createdAt: before.createdAt, seq: before.seq + 1 }));
  for (const row of entries) {
    if (!matches(row)) continue;
    rows.push(row);
    if (rows.length >= want) break;
  }
  return rows;
}

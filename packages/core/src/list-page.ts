import type { PositionedJob, ScreenedList } from './contract/driver.js';
import type { ListPage } from './contract/records.js';
import type { CursorCodec } from './screen/cursor.js';

/**
 * Turns the `limit + 1` rows a backend walked into a page with cursors. Walking forward (no
 * cursor, or `after`): the extra row means more follow. Walking back (`before`): rows came
 * nearest-first, so they are turned into list order and the extra row means more precede.
 */
export function toListPage(
  request: ScreenedList,
  walked: readonly PositionedJob[],
  cursors: CursorCodec,
): ListPage {
  const next = (row: PositionedJob) => cursors.encode(row.position, request, 'after');
  const prev = (row: PositionedJob) => cursors.encode(row.position, request, 'before');
  const more = walked.length > request.limit;
  const kept = walked.slice(0, request.limit);
  const rows = request.before === undefined ? kept : [...kept].reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  const jobs = rows.map((row) => row.job);
  if (first === undefined || last === undefined) return { jobs };
  if (request.before !== undefined) {
    return {
      jobs,
      next: next(last),
      ...(more ? { prev: prev(first) } : {}),
    };
  }
  return {
    jobs,
    ...(more ? { next: next(last) } : {}),
    ...(request.after === undefined ? {} : { prev: prev(first) }),
  };
}

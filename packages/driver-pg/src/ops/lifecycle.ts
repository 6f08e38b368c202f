import {
  LIFECYCLE_READ_SCAN,
  type LifecycleBackend,
  type LifecycleEvent,
  type LifecycleEventType,
  type LifecyclePage,
  lifecyclePositionInvalid,
  type ScreenedLifecycleRead,
} from '@berth/core/driver';
import { int } from '../rows.js';
import type { OpsContext } from './context.js';

/**
 * How long a read waits for the transactions holding a lock on jobs when it starts to end before
 * it reads below the oldest one still open (migration 17's lifecycle_horizon): a Berth change
 * ends within milliseconds, an app's transaction that enqueued may not (the events of changes made
 * after it began come once it ends).
 */
export const HORIZON_WAIT_MS = 1_000;

/**
 * A position: its row's stamp and id, and the event's place in the row (migration 17),
 * `<stamp>.<id>.<place>`, each decimal.
 */
const POSITION = /^(0|[1-9][0-9]{0,19})\.([1-9][0-9]{0,18})\.([1-9][0-9]{0,9})$/;
const MAX_STAMP = 2n ** 64n - 1n;
const MAX_ID = 2n ** 63n - 1n;
const MAX_PLACE = 2 ** 31 - 1;
/** Where a read from the oldest kept event starts: before every row. */
const START = ['0', '0', 0] as const;

interface EventRow {
  readonly stamp: string;
  readonly id: string;
  readonly place: string;
  readonly job_id: string;
  readonly type: LifecycleEventType;
  readonly name: string;
  readonly queue: string;
  readonly tenant_id: string | null;
  readonly attempt: number;
  readonly at: string;
  readonly hit: boolean;
}

/** `after` as (stamp, id, place), or lifecyclePositionInvalid for one this driver never makes. */
function decode(after: string): readonly [string, string, number] {
  const match = POSITION.exec(after);
  const [, stamp, id, place] = match ?? [];
  if (stamp === undefined || id === undefined || place === undefined) {
    throw lifecyclePositionInvalid(after);
  }
  if (BigInt(stamp) > MAX_STAMP || BigInt(id) > MAX_ID || Number(place) > MAX_PLACE) {
    throw lifecyclePositionInvalid(after);
  }
  return [stamp, id, Number(place)];
}

const positionOf = (row: {
  readonly stamp: string;
  readonly id: string;
  readonly place: string | number;
}) => `${row.stamp}.${row.id}.${row.place}`;

function toEvent(row: EventRow): LifecycleEvent {
  return {
    position: positionOf(row),
    type: row.type,
    jobId: row.job_id,
    name: row.name,
    queue: row.queue,
    ...(row.tenant_id === null ? {} : { tenantId: row.tenant_id }),
    attempt: row.attempt,
    at: int(row.at),
  };
}

/**
 * The stream's page from `rows` (the events after `after` in stream order, at most the scan and
 * one more): examined one by one until `limit` matched or the scan is spent.
 */
function pageOf(rows: readonly EventRow[], request: ScreenedLifecycleRead): LifecyclePage {
  const events: LifecycleEvent[] = [];
  let examined = 0;
  while (examined < rows.length && examined < LIFECYCLE_READ_SCAN) {
    const row = rows[examined] as EventRow;
    examined += 1;
    if (row.hit) events.push(toEvent(row));
    if (events.length === request.limit) break;
  }
  const last = rows[examined - 1];
  const next = last === undefined ? request.after : positionOf(last);
  return { events, ...(next === undefined ? {} : { next }), caughtUp: examined === rows.length };
}

export function lifecycleStore({ db, sql }: OpsContext, retention: number): LifecycleBackend {
  const horizon = async () => {
    const [row] = await db.rows<{ horizon: string }>(
      'read the lifecycle horizon',
      sql.lifecycle.horizon,
      [HORIZON_WAIT_MS],
    );
    if (row === undefined) throw new Error('the lifecycle horizon answered no row');
    return row.horizon;
  };

  return {
    async read(request) {
      const position = request.after === undefined ? START : decode(request.after);
      const below = await horizon();
      // One more than a read examines: whether it is there says if the stream goes on.
      const rows = await db.rows<EventRow & { known: boolean; id: string | null }>(
        'read the lifecycle stream',
        sql.lifecycle.read,
        [
          below,
          LIFECYCLE_READ_SCAN + 1,
          request.queue,
          request.name,
          request.jobId,
          request.tenantId,
          ...position,
          request.after !== undefined,
        ],
      );
      if (rows[0]?.known !== true) throw lifecyclePositionInvalid(request.after as string);
      return pageOf(
        rows.filter((row) => row.id !== null),
        request,
      );
    },
    async end() {
      const [row] = await db.rows<{ stamp: string; id: string; place: number }>(
        'read the lifecycle end',
        sql.lifecycle.end,
        [await horizon()],
      );
      return row === undefined ? undefined : positionOf(row);
    },
    async trim(limit) {
      const [row] = await db.rows<{ removed: string }>(
        'trim the lifecycle stream',
        sql.lifecycle.trim,
        [retention, limit],
      );
      return row === undefined ? 0 : int(row.removed);
    },
  };
}

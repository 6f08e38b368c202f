import {
  BACKFILL_RUNS_KEPT,
  BACKFILL_STATUSES,
  type BackfillBackend,
  type BackfillChange,
  type BackfillRun,
  type BackfillStatus,
  type Json,
} from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { asArray, asString, fieldsOf, ReplyShapeError } from './decode.js';
import {
  BACKFILL_COMMIT_LUA,
  BACKFILL_GET_LUA,
  BACKFILL_LIST_LUA,
  BACKFILL_START_LUA,
  BACKFILL_TRANSITION_LUA,
} from './lua/generated.js';
import { defineScript } from './scripts.js';

const START = defineScript('backfill-start', BACKFILL_START_LUA);
const GET = defineScript('backfill-get', BACKFILL_GET_LUA, { readOnly: true });
const TRANSITION = defineScript('backfill-transition', BACKFILL_TRANSITION_LUA);
const COMMIT = defineScript('backfill-commit', BACKFILL_COMMIT_LUA);
const LIST = defineScript('backfill-list', BACKFILL_LIST_LUA, { readOnly: true });

/** The scripts' "none" for an optional name: core refuses an empty one, so '' is free. */
const orNone = (value: string | undefined): string => value ?? '';

/** A run's hash (HGETALL's flat reply) as the contract answers it, in its field order. */
function decodeRun(reply: unknown): BackfillRun {
  const fields = fieldsOf(reply, 'backfill run');
  const text = (field: string): string => {
    const value = fields.get(field);
    if (value === undefined) throw new ReplyShapeError(`backfill hash lacks ${field}`);
    return value;
  };
  const status = text('status');
  if (!BACKFILL_STATUSES.includes(status as BackfillStatus)) {
    throw new ReplyShapeError(`backfill hash holds status ${status}`);
  }
  const tenantId = fields.get('tenantId');
  const finishedAt = fields.get('finishedAt');
  const lastError = fields.get('lastError');
  return {
    runId: text('runId'),
    name: text('name'),
    ...(tenantId === undefined ? {} : { tenantId }),
    status: status as BackfillStatus,
    cursor: JSON.parse(text('cursor')) as Json | null,
    passes: Number(text('passes')),
    rowsDone: Number(text('rowsDone')),
    jobId: text('jobId'),
    startedAt: Number(text('startedAt')),
    updatedAt: Number(text('updatedAt')),
    ...(finishedAt === undefined ? {} : { finishedAt: Number(finishedAt) }),
    ...(lastError === undefined ? {} : { lastError }),
  };
}

/** `{changed (1|0), run}`, or null for a run the call cannot see. */
function decodeChange(reply: unknown, what: string): BackfillChange | undefined {
  if (reply === null) return undefined;
  const [changed, run] = asArray(reply, what);
  return { changed: changed === 1, run: decodeRun(run) };
}

/** The ledger: every call one script of `lua/scripts/backfill-*.lua` at the driver's clock. */
export function createBackfillStore(context: RedisContext): BackfillBackend {
  const now = () => context.clock.now();
  return {
    async start(start) {
      const reply = asArray(
        await context.run(START, now(), [
          start.runId,
          start.name,
          orNone(start.tenantId),
          JSON.stringify(start.cursor),
          start.jobId,
          start.maxActive,
          BACKFILL_RUNS_KEPT,
        ]),
        'backfill start',
      );
      const [answer, ...runs] = reply;
      if (asString(answer, 'backfill start') === 'started') {
        return { started: true, run: decodeRun(runs[0]) };
      }
      return { started: false, active: runs.map(decodeRun) };
    },
    async get(runId, tenantId) {
      const reply = await context.run(GET, now(), [runId, orNone(tenantId)]);
      return reply === null ? undefined : decodeRun(reply);
    },
    async transition(change) {
      const reply = await context.run(TRANSITION, now(), [
        change.runId,
        orNone(change.tenantId),
        change.to,
        orNone(change.jobId),
        change.error === undefined ? 0 : 1,
        orNone(change.error),
        ...change.from,
      ]);
      return decodeChange(reply, 'backfill transition');
    },
    async commit(pass) {
      const reply = await context.run(COMMIT, now(), [
        pass.runId,
        pass.jobId,
        pass.passes,
        // A null cursor is the text 'null', which no other cursor's JSON is.
        JSON.stringify(pass.next),
        pass.rows,
      ]);
      return decodeChange(reply, 'backfill commit');
    },
    async list(request) {
      const reply = await context.run(LIST, now(), [
        orNone(request.name),
        orNone(request.tenantId),
        orNone(request.status),
        request.limit,
      ]);
      return asArray(reply, 'backfill list').map(decodeRun);
    },
  };
}

import {
  type ByIdOptions,
  isJobState,
  JOB_STATES,
  type JobRecord,
  type JobState,
  jobDuplicate,
  jobNotCancellable,
  jobNotFound,
  jobNotPromotable,
  jobNotRequeueable,
  type PurgeRequest,
  type QueueStats,
  type RequeueOptions,
  stepInvalid,
} from '@berth/core/driver';
import type { RedisContext } from './context.js';
import {
  asArray,
  asString,
  decodeJob,
  jobOf,
  ReplyShapeError,
  withStoredDefaults,
} from './decode.js';
import {
  OPERATOR_LUA,
  PURGE_IDS_LUA,
  PURGE_LUA,
  REQUEUE_CHECK_LUA,
  REQUEUE_LUA,
  STATS_LUA,
} from './lua/generated.js';
import { defineScript } from './scripts.js';

const OPERATOR = defineScript('operator', OPERATOR_LUA);
const REQUEUE_CHECK = defineScript('requeue-check', REQUEUE_CHECK_LUA, { readOnly: true });
const REQUEUE = defineScript('requeue', REQUEUE_LUA);
const STATS = defineScript('stats', STATS_LUA, { readOnly: true });
const PURGE = defineScript('purge', PURGE_LUA);
const PURGE_IDS = defineScript('purge-ids', PURGE_IDS_LUA);

/** Rows one purge call removes unless told otherwise (D1); callers loop for more. */
const DEFAULT_PURGE_LIMIT = 1_000;

/** `limit` is on core's PurgeRequest from issue 8's D1 on; read it either way. */
type BoundedPurge = PurgeRequest & { readonly limit?: number };

const stateOf = (value: unknown): JobState => {
  const state = asString(value, 'state');
  if (!isJobState(state)) throw new ReplyShapeError(`unknown state ${state}`);
  return state;
};

export async function get(
  context: RedisContext,
  id: string,
  options: ByIdOptions,
): Promise<JobRecord | undefined> {
  const now = context.clock.now();
  const fields = new Map(Object.entries(await context.redis.hgetall(context.keys.job(id))));
  if (fields.size === 0) return undefined;
  withStoredDefaults(fields, id);
  if (options.tenantId !== undefined && fields.get('tenantId') !== options.tenantId) {
    return undefined;
  }
  return decodeJob(fields, now);
}

async function byId(
  context: RedisContext,
  op: 'cancel' | 'promote',
  id: string,
  options: ByIdOptions,
): Promise<JobRecord> {
  const now = context.clock.now();
  const reply = await context.run(OPERATOR, now, [
    id,
    options.tenantId ?? '',
    op,
    context.lifecycleRetention,
  ]);
  const [kind, value] = asArray(reply, op);
  if (kind === 'missing') throw jobNotFound(id);
  if (kind === 'state') {
    const state = stateOf(value);
    throw op === 'cancel' ? jobNotCancellable(id, state) : jobNotPromotable(id, state);
  }
  return jobOf(value, now);
}

export const cancel = (context: RedisContext, id: string, options: ByIdOptions) =>
  byId(context, 'cancel', id, options);

export const promote = (context: RedisContext, id: string, options: ByIdOptions) =>
  byId(context, 'promote', id, options);

/** JOB_DUPLICATE for requeuing `id`, whose key the live row `holderId` holds. */
async function duplicateOf(context: RedisContext, id: string, holderId: unknown) {
  const job = await get(context, id, {});
  if (job === undefined) return jobNotFound(id);
  return jobDuplicate(job, asString(holderId, 'requeue'));
}

/** The checks (read-only), the seam, then the change, which holds only if nothing won the race. */
export async function requeue(
  context: RedisContext,
  id: string,
  options: RequeueOptions,
): Promise<JobRecord> {
  const args = [id, options.tenantId ?? '', options.fromStep ?? ''];
  const [kind, value] = asArray(
    await context.run(REQUEUE_CHECK, context.clock.now(), args),
    'requeue',
  );
  if (kind === 'missing') throw jobNotFound(id);
  if (kind === 'state') throw jobNotRequeueable(id, stateOf(value));
  if (kind === 'duplicate') throw await duplicateOf(context, id, value);
  if (kind === 'step') {
    const runId = asString(value, 'requeue');
    throw stepInvalid(
      `requeue fromStep ${JSON.stringify(options.fromStep)} names no step of run ${runId}`,
      {
        jobId: id,
        runId,
        step: options.fromStep,
      },
    );
  }
  await context.hooks.afterRequeueCheck?.();
  const now = context.clock.now();
  const [landed, row] = asArray(await context.run(REQUEUE, now, args), 'requeue');
  if (landed === 'missing') throw jobNotFound(id);
  if (landed === 'live') throw jobNotRequeueable(id, 'live');
  if (landed === 'duplicate') throw await duplicateOf(context, id, row);
  return jobOf(row, now);
}

export async function stats(context: RedisContext): Promise<readonly QueueStats[]> {
  const now = context.clock.now();
  const rows = asArray(await context.run(STATS, now, []), 'stats');
  return rows
    .map((row): QueueStats => {
      const [queue, ...rest] = asArray(row, 'stats');
      const oldest = asString(rest[JOB_STATES.length], 'stats');
      const counts = Object.fromEntries(
        JOB_STATES.map((state, index) => [state, Number(rest[index])]),
      ) as Record<JobState, number>;
      return {
        queue: asString(queue, 'stats'),
        counts,
        oldestReadyAgeMs: oldest === '' ? null : now - Number(oldest),
      };
    })
    .sort((a, b) => (a.queue < b.queue ? -1 : a.queue > b.queue ? 1 : 0));
}

export async function purge(context: RedisContext, request: BoundedPurge): Promise<number> {
  const now = context.clock.now();
  const limit = request.limit ?? DEFAULT_PURGE_LIMIT;
  if (request.ids !== undefined) {
    const args = [
      request.olderThan,
      limit,
      request.states.length,
      ...request.states,
      ...request.ids,
    ];
    return Number(await context.run(PURGE_IDS, now, args));
  }
  const args = [request.olderThan, limit, request.states.length, ...request.states];
  return Number(await context.run(PURGE, now, args));
}

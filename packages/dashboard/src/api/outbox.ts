import { jobInvalid, type OutboxAdmin } from '@berth/core';
import type { DeadOutboxView, OutboxActionResponse, OutboxResponse } from '../api-types.js';
import type { RequestContext } from '../http/context.js';

/** Dead rows one page shows. */
export const OUTBOX_DEAD_LIMIT = 100;
/** Ids one action takes. */
const MAX_IDS = 100;

const notForTenants = () =>
  jobInvalid(
    'tenantId',
    "the outbox holds every tenant's staged rows; act on it from a dashboard without a tenant",
  );

/** What waits in the outbox and what the queue refused; empty when none was given. */
export async function outboxView(context: RequestContext): Promise<OutboxResponse> {
  const outbox = context.options.outbox;
  const empty = { stats: null, dead: [], limit: OUTBOX_DEAD_LIMIT };
  if (outbox === undefined) return { configured: false, tenantScoped: false, ...empty };
  if (context.tenantId !== undefined) return { configured: true, tenantScoped: true, ...empty };
  const [stats, dead] = await Promise.all([
    outbox.stats(),
    outbox.dead({ limit: OUTBOX_DEAD_LIMIT }),
  ]);
  return {
    configured: true,
    tenantScoped: false,
    stats,
    dead: dead.map(
      ({ row, refusal, stagedAt, deadAt }): DeadOutboxView => ({
        id: row.id,
        kind: row.kind,
        name: row.kind === 'job' ? row.request.name : row.name,
        refusal,
        stagedAt,
        deadAt,
      }),
    ),
    limit: OUTBOX_DEAD_LIMIT,
  };
}

/** The ids of an action's body (`{ ids: [...] }`), screened. */
async function idsOf(context: RequestContext): Promise<string[]> {
  const body = await context.body();
  const ids = (body as { ids?: unknown } | null)?.ids;
  if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    ids.length > MAX_IDS ||
    ids.some((id) => typeof id !== 'string' || id === '')
  ) {
    throw jobInvalid('ids', `must be a list of 1 to ${MAX_IDS} row ids`);
  }
  return ids as string[];
}

function outboxOf(context: RequestContext): OutboxAdmin {
  const outbox = context.options.outbox;
  if (outbox === undefined) throw jobInvalid('outbox', 'the dashboard was given no outbox');
  if (context.tenantId !== undefined) throw notForTenants();
  return outbox;
}

/** Stages dead rows again: a relay moves them next. */
export async function retryOutbox(context: RequestContext): Promise<OutboxActionResponse> {
  const outbox = outboxOf(context);
  return { done: await outbox.retry(await idsOf(context)) };
}

/** Removes dead rows for good. */
export async function discardOutbox(context: RequestContext): Promise<OutboxActionResponse> {
  const outbox = outboxOf(context);
  return { done: await outbox.discard(await idsOf(context)) };
}

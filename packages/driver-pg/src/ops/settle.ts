import type {
  AckItem,
  AckOptions,
  ClaimedJob,
  ClaimOutcome,
  Fence,
  JobRecord,
  NackItem,
  NackOptions,
  ScreenedClaim,
  SuspendOptions,
} from '@berth/core';
import { type JobRow, jsonParam, toJobRecord } from '../rows.js';
import type { OpsContext } from './context.js';

/** What a claim writes on a final-attempt lapsed lease it buries. */
const LEASE_LAPSED = JSON.stringify({
  code: 'LEASE_LAPSED',
  message: 'the lease lapsed on the final attempt and no attempts remain',
});

type ClaimRow = JobRow & { readonly resumed: boolean };

/** claim and the fenced settles: each ONE statement. */
export function settleOps(context: OpsContext) {
  const { db, sql, clock, channel } = context;
  const landed = async (operation: string, text: string, values: unknown[]) =>
    (await db.rows(operation, text, values)).length > 0;
  const fence = (f: Fence) => [f.jobId, f.workerId, f.claim];

  async function claim(request: ScreenedClaim): Promise<ClaimOutcome> {
    const now = clock.now();
    const text = request.names === undefined ? sql.claim.claim : sql.claim.claimNamed;
    const rows = await db.rows<ClaimRow>('claim', text, [
      request.queues,
      now,
      request.limit,
      request.workerId,
      request.visibilityTimeoutMs,
      request.dropExhausted,
      LEASE_LAPSED,
      request.names ?? null,
    ]);
    const claimed: ClaimedJob[] = [];
    const buried: JobRecord[] = [];
    for (const row of rows) {
      const record = toJobRecord(row, now);
      if (record.state === 'running') {
        claimed.push({ ...(record as ClaimedJob), resumed: row.resumed });
      } else {
        buried.push(record);
      }
    }
    return { claimed, buried };
  }

  const ack = (f: Fence, options: AckOptions) =>
    landed('ack', sql.settle.ack, [
      ...fence(f),
      clock.now(),
      options.result !== undefined,
      jsonParam(options.result),
    ]);

  const nack = (f: Fence, options: NackOptions) =>
    landed('nack', sql.settle.nack, [
      ...fence(f),
      clock.now(),
      JSON.stringify(options.error),
      options.retryAt ?? null,
      options.final === true,
      options.deadLetter !== false,
      channel,
    ]);

  const suspend = (f: Fence, options: SuspendOptions) =>
    landed('suspend', sql.settle.suspend, [
      ...fence(f),
      clock.now(),
      options.until,
      options.waitFor ?? null,
      options.eventsSince ?? null,
      channel,
    ]);

  const extend = (f: Fence, visibilityTimeoutMs: number) =>
    landed('extend a lease', sql.settle.extend, [...fence(f), clock.now(), visibilityTimeoutMs]);

  const answerPerItem = (count: number, rows: readonly { ord: string | number }[]) => {
    const hit = new Set(rows.map((row) => Number(row.ord)));
    return Array.from({ length: count }, (_, index) => hit.has(index + 1));
  };

  async function ackMany(items: readonly AckItem[]): Promise<boolean[]> {
    const rows = await db.rows<{ ord: string }>('ack a batch', sql.settle.ackMany, [
      items.map((item) => item.fence.jobId),
      items.map((item) => item.fence.workerId),
      items.map((item) => item.fence.claim),
      items.map((item) => item.result !== undefined),
      items.map((item) => jsonParam(item.result)),
      clock.now(),
    ]);
    return answerPerItem(items.length, rows);
  }

  async function nackMany(items: readonly NackItem[]): Promise<boolean[]> {
    const rows = await db.rows<{ ord: string }>('nack a batch', sql.settle.nackMany, [
      items.map((item) => item.fence.jobId),
      items.map((item) => item.fence.workerId),
      items.map((item) => item.fence.claim),
      items.map((item) => JSON.stringify(item.error)),
      items.map((item) => item.retryAt ?? null),
      items.map((item) => item.final === true),
      items.map((item) => item.deadLetter !== false),
      clock.now(),
      channel,
    ]);
    return answerPerItem(items.length, rows);
  }

  return { claim, ack, nack, suspend, extend, ackMany, nackMany };
}

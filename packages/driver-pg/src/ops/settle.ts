import type {
  AckItem,
  AckOptions,
  Fence,
  NackItem,
  NackOptions,
  SuspendOptions,
} from '@berth/core/driver';
import { boolArray, intArray, uuidArray } from '../array-literal.js';
import { jsonParam } from '../rows.js';
import type { OpsContext } from './context.js';

/** The fenced settles: each ONE statement. */
export function settleOps(context: OpsContext) {
  const { db, sql, clock, channel, settleChannel } = context;
  const landed = async (operation: string, text: string, values: unknown[]) =>
    (await db.rows(operation, text, values)).length > 0;
  const fence = (f: Fence) => [f.jobId, f.workerId, f.claim];

  const ack = (f: Fence, options: AckOptions) =>
    landed('ack', sql.settle.ack, [
      ...fence(f),
      clock.now(),
      options.result !== undefined,
      jsonParam(options.result),
      settleChannel,
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
      options.cancel === true,
      settleChannel,
    ]);

  const suspend = async (f: Fence, options: SuspendOptions) => {
    const filtered = options.eventsMatch !== undefined || options.eventsExclude !== undefined;
    const suspended = await landed('suspend', sql.settle.suspend, [
      ...fence(f),
      clock.now(),
      options.until,
      options.waitFor ?? null,
      // With a filter the events are looked at after the suspend, through the filter.
      filtered ? null : (options.eventsSince ?? null),
      channel,
    ]);
    if (suspended && filtered && options.waitFor !== undefined) {
      await db.rows('wake a suspend on a stored event', sql.settle.suspendWake, [
        f.jobId,
        f.claim,
        options.waitFor,
        options.eventsSince ?? null,
        options.eventsMatch === undefined ? null : JSON.stringify(options.eventsMatch),
        options.eventsExclude ?? null,
        clock.now(),
        channel,
      ]);
    }
    return suspended;
  };

  const extend = (f: Fence, visibilityTimeoutMs: number) =>
    landed('extend a lease', sql.settle.extend, [...fence(f), clock.now(), visibilityTimeoutMs]);

  const answerPerItem = (count: number, rows: readonly { ord: string | number }[]) => {
    const hit = new Set(rows.map((row) => Number(row.ord)));
    return Array.from({ length: count }, (_, index) => hit.has(index + 1));
  };

  async function ackMany(items: readonly AckItem[]): Promise<boolean[]> {
    const rows = await db.rows<{ ord: string }>('ack a batch', sql.settle.ackMany, [
      uuidArray(items.map((item) => item.fence.jobId)),
      items.map((item) => item.fence.workerId),
      intArray(items.map((item) => item.fence.claim)),
      boolArray(items.map((item) => item.result !== undefined)),
      items.map((item) => jsonParam(item.result)),
      clock.now(),
      settleChannel,
    ]);
    return answerPerItem(items.length, rows);
  }

  async function nackMany(items: readonly NackItem[]): Promise<boolean[]> {
    const rows = await db.rows<{ ord: string }>('nack a batch', sql.settle.nackMany, [
      uuidArray(items.map((item) => item.fence.jobId)),
      items.map((item) => item.fence.workerId),
      intArray(items.map((item) => item.fence.claim)),
      items.map((item) => JSON.stringify(item.error)),
      items.map((item) => item.retryAt ?? null),
      items.map((item) => item.final === true),
      items.map((item) => item.deadLetter !== false),
      items.map((item) => item.cancel === true),
      clock.now(),
      channel,
      settleChannel,
    ]);
    return answerPerItem(items.length, rows);
  }

  return { ack, nack, suspend, extend, ackMany, nackMany };
}

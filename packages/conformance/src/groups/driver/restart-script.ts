import type { JobState } from '@berth/core';
import type { Op } from '../../differential/ops.js';

/** The two processes of one deployment: the case's driver and a sibling over the same store. */
export type Process = 'a' | 'b';

/** Calls of the contract the differential ops do not make: marks and a slot's marked enqueue. */
export type MarkOp =
  | { readonly kind: 'markGet'; readonly name: string }
  | { readonly kind: 'markAdvance'; readonly name: string; readonly value: number }
  | { readonly kind: 'enqueueMarked'; readonly queue: string; readonly value: number };

/** What is done to the server; on the reference side (no server) it does nothing. */
export type Control = 'restart' | 'outage' | 'freeze b' | 'thaw b' | 'wait out the grace';

export type Step =
  | { readonly on: Process; readonly op: Op | MarkOp }
  | { readonly control: Control };

/** The cron mark every marked enqueue of the script raises. */
export const MARK = 'kit.restart.cron';

/** The id of the slot `value`'s job: every enqueue of one slot names the same id. */
export const slotJobId = (value: number): string =>
  `c0ffee01-0000-4000-8000-${String(value).padStart(12, '0')}`;

const JOBS = 9;
const SETTLED: readonly JobState[] = ['completed', 'dead', 'failed', 'cancelled'];

const on = (process: Process, ...ops: readonly (Op | MarkOp)[]): Step[] =>
  ops.map((op) => ({ on: process, op }));

/**
 * A state with a job of every kind, made by both processes: ready rows of two priorities, a
 * keyed row (and its dedupe), delayed rows, a tenant's row, running rows with leases (one about
 * to lapse), a run suspended on an event, steps, completed and dead rows, events with and
 * without a ttl, a lease, a slot's holders, marks and a marked enqueue.
 */
export const build: readonly Step[] = [
  ...on('a', {
    kind: 'enqueueMany',
    requests: [
      { name: 'mail', n: 1, queue: 'q1' },
      { name: 'mail', n: 2, queue: 'q1', priority: 5 },
      { name: 'sync', n: 3, queue: 'q1', key: 'k1' },
      { name: 'mail', n: 4, queue: 'q1', delayMs: 60_000 },
      { name: 'bill', n: 5, queue: 'q2', tenant: 't1' },
      { name: 'bill', n: 6, queue: 'q2', priority: 3, delayMs: 5_000 },
    ],
  }),
  ...on('b', { kind: 'enqueue', request: { name: 'sync', n: 7, queue: 'q1', key: 'k1' } }),
  // Fences 0 (the priority-5 row) and 1.
  ...on('a', { kind: 'claim', queues: ['q1'], limit: 2, worker: 'wa', vtMs: 30_000 }),
  ...on(
    'b',
    { kind: 'stepPut', fence: 0, name: 's1', status: 'completed' },
    { kind: 'stepPut', fence: 0, name: 's2', status: 'failed' },
  ),
  ...on('a', { kind: 'suspend', fence: 1, untilInMs: 600_000, waitFor: 'paid' }),
  // Fence 2: a short lease that lapses before the server is disturbed.
  ...on(
    'b',
    { kind: 'claim', queues: ['q1'], limit: 1, worker: 'wb', vtMs: 1_000 },
    { kind: 'progress', fence: 2, done: 1 },
  ),
  ...on(
    'a',
    { kind: 'enqueue', request: { name: 'done', n: 8, queue: 'q3' } },
    { kind: 'claim', queues: ['q3'], limit: 1, worker: 'wa', vtMs: 30_000 },
    { kind: 'ack', fence: 3, result: 1 },
  ),
  ...on(
    'b',
    { kind: 'enqueue', request: { name: 'done', n: 9, queue: 'q3', maxAttempts: 1 } },
    { kind: 'claim', queues: ['q3'], limit: 1, worker: 'wb', vtMs: 30_000 },
    { kind: 'nack', fence: 4 },
    { kind: 'publish', name: 'other', n: 1, ttlMs: 10_000 },
  ),
  ...on(
    'a',
    { kind: 'publish', name: 'noise', n: 2 },
    { kind: 'acquire', name: 'leader', holder: 'a', ttlMs: 60_000 },
    { kind: 'acquireSlot', key: 'slot', limit: 2, holder: 'a1', ttlMs: 60_000 },
    { kind: 'enqueueMarked', queue: 'q4', value: 1 },
  ),
  ...on(
    'b',
    { kind: 'acquireSlot', key: 'slot', limit: 2, holder: 'b1', ttlMs: 60_000 },
    { kind: 'markAdvance', name: `${MARK}.other`, value: 7 },
    { kind: 'advance', ms: 2_000 },
    // Fence 5: the tenant's row, held by b across the disturbance.
    { kind: 'claim', queues: ['q2'], limit: 1, worker: 'wb', vtMs: 30_000 },
  ),
];

/** Every read a process can make of that state: each answer is compared with the reference. */
export function readAll(process: Process): Step[] {
  return on(
    process,
    ...Array.from({ length: JOBS }, (_, target): Op => ({ kind: 'get', target })),
    { kind: 'get', target: 'unknown' },
    { kind: 'get', target: 4, tenant: 't1' },
    { kind: 'get', target: 4, tenant: 't2' },
    { kind: 'list', limit: 50 },
    { kind: 'list', limit: 2, queue: 'q1' },
    { kind: 'list', limit: 2, queue: 'q1', follow: 'next' },
    { kind: 'list', limit: 50, state: 'running' },
    { kind: 'stats' },
    { kind: 'eventsList' },
    { kind: 'find', name: 'other', afterInMs: -60_000 },
    { kind: 'find', name: 'paid', afterInMs: -60_000 },
    { kind: 'stepList', fence: 0 },
    { kind: 'holder', name: 'leader' },
    { kind: 'markGet', name: MARK },
    { kind: 'markGet', name: `${MARK}.other` },
  );
}

/**
 * Work after the disturbance, `x` and `y` taking turns: old fences settle (a held lease still
 * lands, a lapsed and re-claimed one does not), the event wakes its waiter, claims take rows in
 * order, leases and slots answer as before, and a marked enqueue of a passed slot makes nothing.
 */
export function work(x: Process, y: Process): Step[] {
  return [
    ...on(
      y,
      { kind: 'acquire', name: 'leader', holder: 'b', ttlMs: 60_000 },
      { kind: 'acquireSlot', key: 'slot', limit: 2, holder: 'c1', ttlMs: 60_000 },
      { kind: 'enqueueMarked', queue: 'q4', value: 1 },
      { kind: 'publish', name: 'paid', n: 3 },
    ),
    ...on(
      x,
      { kind: 'renew', name: 'leader', holder: 'a', ttlMs: 60_000 },
      { kind: 'releaseSlot', key: 'slot', holder: 'a1' },
      { kind: 'acquireSlot', key: 'slot', limit: 2, holder: 'c1', ttlMs: 60_000 },
      // Fences 6 and on: the resumed waiter and the lapsed row, in claim order.
      { kind: 'claim', queues: ['q1', 'q4'], limit: 5, worker: 'wa2', vtMs: 30_000 },
      { kind: 'ack', fence: 0, result: 2 },
      { kind: 'nack', fence: 1 },
    ),
    ...on(
      y,
      { kind: 'ack', fence: 2 },
      { kind: 'extend', fence: 5, vtMs: 30_000 },
      { kind: 'ackMany', fences: [6, 7, 8] },
      { kind: 'stepList', fence: 0 },
      { kind: 'advance', ms: 11_000 },
    ),
  ];
}

/**
 * Settled rows and expired events are purged by `x`; once the grace has passed and `y` wrote
 * again, `y` purges again, which lets the first purge's delete markers go (NATS).
 */
export function purgeTwice(x: Process, y: Process): Step[] {
  return [
    ...on(
      x,
      { kind: 'purge', states: SETTLED, olderThanInMs: 1 },
      { kind: 'purgeEvents' },
      { kind: 'get', target: 1 },
    ),
    { control: 'wait out the grace' },
    ...on(
      y,
      { kind: 'enqueue', request: { name: 'after', n: 10, queue: 'q1' } },
      { kind: 'purge', states: SETTLED, olderThanInMs: 1 },
      { kind: 'markAdvance', name: MARK, value: 2 },
    ),
  ];
}

/** The last of the work, after every process has read everything back. */
export function finish(process: Process): Step[] {
  return on(
    process,
    { kind: 'enqueueMarked', queue: 'q4', value: 1 },
    { kind: 'enqueueMarked', queue: 'q4', value: 3 },
    { kind: 'claim', queues: ['q1', 'q2', 'q4'], limit: 10, worker: 'wb2', vtMs: 30_000 },
    { kind: 'stats' },
    { kind: 'list', limit: 50 },
  );
}

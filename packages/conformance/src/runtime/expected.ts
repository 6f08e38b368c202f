import type { Transcript } from '../golden/transcript.js';
import { answersLostExpected } from './expected-answers-lost.js';
import { batchExpected } from './expected-batch.js';
import { flowsExpected } from './expected-flows.js';
import { lifecycleExpected } from './expected-lifecycle.js';
import { newestWinsExpected } from './expected-newest.js';
import { slotsExpected } from './expected-slots.js';
import { storedSchedulesExpected } from './expected-stored-schedules.js';
import { workerWaitsExpected } from './expected-worker-waits.js';

/**
 * The runtime transcripts, written by hand from the contract and the runtime's documented
 * behaviour: what every driver's run of each scenario must show.
 */

const SLOT = (minute: number) => `schedule:minutely:2026-01-01T00:0${minute}:00.000Z`;

export const runtimeExpected: Readonly<Record<string, Transcript>> = {
  ...workerWaitsExpected,
  ...slotsExpected,
  ...storedSchedulesExpected,
  ...newestWinsExpected,
  ...answersLostExpected,
  ...batchExpected,
  ...flowsExpected,
  ...lifecycleExpected,
  'job-completes': [
    { op: 'enqueue greet', answer: { deduped: false } },
    {
      op: 'greet settled',
      answer: { name: 'greet', state: 'completed', attempts: 1, result: 'hello Ada' },
    },
    { op: 'handler runs', answer: [{ payload: { name: 'Ada' }, attempt: 1 }] },
  ],
  'retry-then-complete': [
    {
      op: 'flaky settled',
      answer: {
        name: 'flaky',
        state: 'completed',
        attempts: 2,
        result: 'second attempt answers',
        lastError: { message: 'first attempt fails' },
      },
    },
    { op: 'attempts the handler saw', answer: [1, 2] },
  ],
  'exhausted-dead': [
    {
      op: 'doomed settled',
      answer: {
        name: 'doomed',
        state: 'dead',
        attempts: 2,
        lastError: { message: 'attempt 2 fails' },
      },
    },
    { op: 'handler runs', answer: 2 },
  ],
  'cancel-aborts': [
    { op: 'cancel the running job', answer: { name: 'stuck', state: 'cancelled', attempts: 1 } },
    {
      op: 'what the handler saw',
      answer: { started: true, aborted: true, lateStep: 'JOB_ABORTED' },
    },
    {
      op: 'job after the handler returned',
      answer: { name: 'stuck', state: 'cancelled', attempts: 1 },
    },
    { op: 'steps of the run', answer: [] },
  ],
  'step-memoized-across-retry': [
    {
      op: 'order settled',
      answer: {
        name: 'order',
        state: 'completed',
        attempts: 2,
        result: { chargeId: 'ch_1' },
        lastError: { message: 'carrier down' },
      },
    },
    { op: 'step functions run', answer: ['charge', 'ship#1', 'ship#2'] },
    {
      op: 'steps of the run',
      answer: [
        { name: 'charge', status: 'completed', attempts: 1, output: { chargeId: 'ch_1' } },
        { name: 'ship', status: 'completed', attempts: 2 },
      ],
    },
  ],
  'sleep-suspends-then-resumes': [
    {
      op: 'other settled',
      answer: { name: 'other', state: 'completed', attempts: 1, result: 'ran while drip slept' },
    },
    {
      op: 'the sleep step',
      answer: { name: 'wait-a-minute', status: 'sleeping', attempts: 0, wakesAfterMs: 60_000 },
    },
    { op: 'drip 1 ms before its wake', answer: { name: 'drip', state: 'suspended', attempts: 1 } },
    {
      op: 'drip settled',
      answer: { name: 'drip', state: 'completed', attempts: 1, result: 'dripped' },
    },
    { op: 'what ran, in order', answer: ['welcome', 'other', 'follow-up'] },
    {
      op: 'steps of the run',
      answer: [
        { name: 'welcome', status: 'completed', attempts: 1 },
        { name: 'wait-a-minute', status: 'completed', attempts: 0, wakesAfterMs: 60_000 },
        { name: 'follow-up', status: 'completed', attempts: 1 },
      ],
    },
  ],
  'wait-for-event-resumes-on-publish': [
    {
      op: 'invoice parked',
      answer: { name: 'invoice', state: 'suspended', attempts: 1, waitFor: 'invoice.paid' },
    },
    {
      op: 'after a publish that does not match',
      answer: { name: 'invoice', state: 'suspended', attempts: 1, waitFor: 'invoice.paid' },
    },
    {
      op: 'invoice settled',
      answer: { name: 'invoice', state: 'completed', attempts: 1, result: 'paid' },
    },
    { op: 'what the wait answered', answer: [{ invoice: 'inv-1', amount: 42 }] },
    {
      op: 'steps of the run',
      answer: [
        {
          name: 'paid',
          status: 'completed',
          attempts: 0,
          answered: { invoice: 'inv-1', amount: 42 },
          eventName: 'invoice.paid',
          wakesAfterMs: 3_600_000,
        },
      ],
    },
  ],
  'wait-for-event-published-before': [
    {
      op: 'invoice settled',
      answer: { name: 'invoice', state: 'completed', attempts: 1, result: 'paid' },
    },
    { op: 'what the wait answered', answer: [{ invoice: 'inv-1', amount: 7 }] },
  ],
  'wait-for-event-times-out': [
    {
      op: 'the wait step',
      answer: {
        name: 'paid',
        status: 'waiting',
        attempts: 0,
        eventName: 'invoice.paid',
        wakesAfterMs: 3_600_000,
      },
    },
    {
      op: 'invoice settled',
      answer: { name: 'invoice', state: 'completed', attempts: 1, result: 'unpaid' },
    },
    { op: 'what the wait answered', answer: ['timed out'] },
  ],
  'scheduler-slots-once': [
    {
      op: 'tick at minute 1',
      answer: { a: { leader: true, slots: [0, 60_000] }, b: { leader: false, slots: [] } },
    },
    {
      op: 'tick at minute 2',
      answer: { a: { leader: true, slots: [120_000] }, b: { leader: false, slots: [] } },
    },
    {
      op: 'tick at minute 3',
      answer: { a: { leader: true, slots: [180_000] }, b: { leader: false, slots: [] } },
    },
    // The schedule's mark holds minute 3: b's catch-up enqueues nothing again.
    { op: 'b ticks once a stopped', answer: { leader: true, slots: [] } },
    { op: 'slots the worker ran', answer: [SLOT(0), SLOT(1), SLOT(2), SLOT(3)] },
    {
      op: 'report jobs',
      answer: [0, 1, 2, 3].map((minute) => ({ key: SLOT(minute), state: 'completed' })),
    },
  ],
  'unknown-name-stays-ready': [
    { op: 'known settled', answer: { name: 'known', state: 'completed', attempts: 1 } },
    {
      op: 'newer job after the old worker ran',
      answer: { name: 'newer', state: 'ready', attempts: 0, claim: 0 },
    },
    { op: 'stats', answer: { ready: 1, completed: 1 } },
    {
      op: 'newer settled by a worker that knows it',
      answer: { name: 'newer', state: 'completed', attempts: 1 },
    },
  ],
  'scheduler-slot-after-purge': [
    { op: 'a ticks at minute 1', answer: { leader: true, slots: [60_000] } },
    { op: 'slot job purged', answer: { purged: 1, left: 0 } },
    { op: 'b takes the lead and catches up', answer: { leader: true, slots: [] } },
    { op: 'report jobs after the catch-up', answer: 0 },
    { op: 'b ticks at minute 2', answer: { leader: true, slots: [[120_000, false]] } },
  ],
  'scheduler-killed-after-enqueue': [
    // The enqueue landed, with the mark, but a died before it read the answer.
    { op: 'a ticks at minute 1 and dies once its enqueue landed', answer: { slots: [] } },
    { op: 'slot jobs run and purged', answer: 1 },
    // The mark holds minute 1, though its job is gone: b does not enqueue it again.
    { op: 'b takes the lead and catches up', answer: { leader: true, slots: [] } },
    { op: 'b ticks at minute 2', answer: { slots: [120_000] } },
    { op: 'jobs each slot made', answer: [1, 1] },
  ],
  'scheduler-killed-before-enqueue': [
    { op: 'a ticks at minute 1 and dies before its enqueue', answer: { slots: [] } },
    // Neither the job nor the mark landed: b enqueues minute 1, once.
    { op: 'b takes the lead and catches up', answer: { leader: true, slots: [60_000] } },
    { op: 'slot jobs run and purged', answer: 1 },
    { op: 'b ticks at minute 2', answer: { slots: [120_000] } },
    { op: 'jobs each slot made', answer: [1, 1] },
  ],
  'scheduler-stalled-leader': [
    // a's enqueue of minute 1 hangs before it lands: b catches up all three slots.
    {
      op: 'b leads while a hangs',
      answer: { leader: true, slots: [60_000, 120_000, 180_000] },
    },
    { op: 'slot jobs run and purged', answer: 3 },
    // a's enqueue finds the mark at minute 3 (markPassed); its next slot finds the lead lost.
    { op: 'a’s stalled tick ends', answer: { slots: [], leader: false } },
    { op: 'b ticks again', answer: { leader: true, slots: 0 } },
    { op: 'jobs each slot made', answer: [1, 1, 1] },
  ],
  'scheduler-stop-leaves-lead': [
    { op: 'a leads', answer: true },
    // The tick in flight renewed before the stop released; the one asked for during it did nothing.
    { op: 'a’s ticks around the stop', answer: [true, false] },
    { op: 'lease holder once a stopped', answer: null },
    { op: 'a ticks after its stop', answer: { leader: false, enqueued: [] } },
    { op: 'b ticks', answer: true },
  ],
};

import type { Transcript } from '../transcript.js';

export const enqueueRetryTwoMisses: Transcript = [
  { op: 'enqueue sync key k', answer: { id: 'job1', runId: 'run1', deduped: false } },
  { op: 'advance 1000ms', answer: '+1000' },
  // First seam: the holder the insert met settles, and a new holder takes the key, so the
  // lookup of the holder misses and the retried insert meets job2.
  {
    op: 'afterEnqueueConflict 1: cancel job1',
    answer: {
      id: 'job1',
      runId: 'run1',
      name: 'sync',
      queue: 'default',
      payload: { n: 1 },
      state: 'cancelled',
      priority: 0,
      attempts: 0,
      maxAttempts: 3,
      runAt: '+0',
      createdAt: '+0',
      updatedAt: '+1000',
      finishedAt: '+1000',
      claim: 0,
      idempotencyKey: 'k',
    },
  },
  {
    op: 'afterEnqueueConflict 1: enqueue a new holder of k',
    answer: { id: 'job2', runId: 'run2', deduped: false },
  },
  // Second seam: job2 settles too; a second miss is an index fault, not a race.
  {
    op: 'afterEnqueueConflict 2: cancel job2',
    answer: {
      id: 'job2',
      runId: 'run2',
      name: 'sync',
      queue: 'default',
      payload: { n: 3 },
      state: 'cancelled',
      priority: 0,
      attempts: 0,
      maxAttempts: 3,
      runAt: '+1000',
      createdAt: '+1000',
      updatedAt: '+1000',
      finishedAt: '+1000',
      claim: 0,
      idempotencyKey: 'k',
    },
  },
  {
    op: 'enqueue sync key k (both holders settle in the seam)',
    answer: {
      error: { code: 'DRIVER_UNAVAILABLE', meta: { driver: '(driver)', operation: 'enqueue' } },
    },
  },
  { op: 'afterEnqueueConflict calls', answer: 2 },
  {
    op: 'list sync jobs',
    answer: [
      { id: 'job2', state: 'cancelled' },
      { id: 'job1', state: 'cancelled' },
    ],
  },
];

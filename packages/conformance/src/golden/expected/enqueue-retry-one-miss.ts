import type { Transcript } from '../transcript.js';

export const enqueueRetryOneMiss: Transcript = [
  { op: 'enqueue sync key k', answer: { id: 'job1', runId: 'run1', deduped: false } },
  { op: 'advance 1000ms', answer: '+1000' },
  // The seam runs after the insert met job1 and before the lookup: the lookup then misses.
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
    op: 'enqueue sync key k (job1 settles in the seam)',
    answer: { id: 'job2', runId: 'run2', deduped: false },
  },
  {
    op: "enqueue with job2's id and key k (an id collision, not a key conflict)",
    answer: { id: 'job2', runId: 'run2', deduped: true },
  },
  { op: 'afterEnqueueConflict calls', answer: 1 },
  {
    op: 'get job2',
    answer: {
      id: 'job2',
      runId: 'run2',
      name: 'sync',
      queue: 'default',
      payload: { n: 2 },
      state: 'ready',
      priority: 0,
      attempts: 0,
      maxAttempts: 3,
      runAt: '+1000',
      createdAt: '+1000',
      updatedAt: '+1000',
      claim: 0,
      idempotencyKey: 'k',
    },
  },
];

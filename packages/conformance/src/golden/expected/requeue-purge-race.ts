import type { Transcript } from '../transcript.js';

export const requeuePurgeRace: Transcript = [
  { op: 'enqueue mail', answer: { id: 'job1', runId: 'run1', deduped: false } },
  { op: 'advance 1000ms', answer: '+1000' },
  {
    op: 'cancel job1',
    answer: {
      id: 'job1',
      runId: 'run1',
      name: 'mail',
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
    },
  },
  { op: 'advance 1000ms', answer: '+2000' },
  // The hook runs between the requeue's checks and its change: the row goes under it.
  { op: 'afterRequeueCheck: purge job1', answer: 1 },
  // The contract's "no such job": the row is gone when the change lands.
  {
    op: 'requeue job1 (purged under it)',
    answer: { error: { code: 'JOB_NOT_FOUND', meta: { jobId: 'job1' } } },
  },
  { op: 'afterRequeueCheck calls', answer: 1 },
  { op: 'get job1', answer: '(none)' },
  { op: 'list', answer: { jobs: [] } },
];

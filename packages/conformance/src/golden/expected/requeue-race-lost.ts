import type { Transcript } from '../transcript.js';

const job1Ready = {
  id: 'job1',
  runId: 'run1',
  name: 'mail',
  queue: 'default',
  payload: { n: 1 },
  state: 'ready',
  priority: 0,
  attempts: 0,
  maxAttempts: 3,
  runAt: '+2000',
  createdAt: '+0',
  updatedAt: '+2000',
  claim: 0,
};

export const requeueRaceLost: Transcript = [
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
  // The hook runs between the outer requeue's checks and its change: the inner one wins.
  { op: 'afterRequeueCheck: requeue job1', answer: job1Ready },
  {
    op: 'requeue job1 (loses the race)',
    answer: { error: { code: 'JOB_NOT_REQUEUEABLE', meta: { jobId: 'job1', state: 'live' } } },
  },
  {
    op: 'requeue job1 again (comes second)',
    answer: { error: { code: 'JOB_NOT_REQUEUEABLE', meta: { jobId: 'job1', state: 'ready' } } },
  },
  // The outer requeue and the inner one each reached the seam; the third refused before it.
  { op: 'afterRequeueCheck calls', answer: 2 },
  { op: 'get job1', answer: job1Ready },
];

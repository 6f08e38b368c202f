import type { Transcript } from '../transcript.js';

const notPromotable = (jobId: string, state: string) => ({
  error: { code: 'JOB_NOT_PROMOTABLE', meta: { jobId, state } },
});

export const promoteRefusals: Transcript = [
  { op: 'enqueue report due in 60s', answer: { id: 'job1', runId: 'run1', deduped: false } },
  { op: 'advance 1000ms', answer: '+1000' },
  {
    op: 'promote job1',
    answer: {
      id: 'job1',
      runId: 'run1',
      name: 'report',
      queue: 'default',
      payload: { n: 1 },
      state: 'ready',
      priority: 0,
      attempts: 0,
      maxAttempts: 3,
      runAt: '+1000',
      createdAt: '+0',
      updatedAt: '+1000',
      claim: 0,
    },
  },
  { op: 'promote job1 (ready)', answer: notPromotable('job1', 'ready') },
  { op: 'enqueue report due in 5s', answer: { id: 'job2', runId: 'run2', deduped: false } },
  { op: 'advance 5000ms', answer: '+6000' },
  {
    op: 'promote job2 (delayed, now due: reads ready)',
    answer: notPromotable('job2', 'ready'),
  },
  {
    op: 'claim',
    answer: [
      {
        id: 'job1',
        runId: 'run1',
        name: 'report',
        queue: 'default',
        payload: { n: 1 },
        state: 'running',
        priority: 0,
        attempts: 1,
        maxAttempts: 3,
        runAt: '+1000',
        createdAt: '+0',
        updatedAt: '+6000',
        claimedBy: 'w1',
        claim: 1,
        visibleAt: '+36000',
        resumed: false,
      },
    ],
  },
  { op: 'promote job1 (running)', answer: notPromotable('job1', 'running') },
  {
    op: 'cancel job2',
    answer: {
      id: 'job2',
      runId: 'run2',
      name: 'report',
      queue: 'default',
      payload: { n: 2 },
      state: 'cancelled',
      priority: 0,
      attempts: 0,
      maxAttempts: 3,
      runAt: '+6000',
      createdAt: '+1000',
      updatedAt: '+6000',
      finishedAt: '+6000',
      claim: 0,
    },
  },
  { op: 'promote job2 (cancelled)', answer: notPromotable('job2', 'cancelled') },
  {
    op: 'promote an id nobody queued',
    answer: { error: { code: 'JOB_NOT_FOUND', meta: { jobId: 'job3' } } },
  },
];

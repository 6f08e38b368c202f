import type { Transcript } from '../transcript.js';

const tenantRefused = {
  error: { code: 'JOB_INVALID', meta: { field: 'tenantId', reason: 'cannot scope a pause' } },
};

export const pauseResume: Transcript = [
  { op: 'enqueue mail', answer: { id: 'job1', runId: 'run1', deduped: false } },
  { op: 'pause mail', answer: { queue: 'mail', paused: true, pausedAt: '+0' } },
  { op: 'advance 1000ms', answer: '+1000' },
  {
    op: 'pause mail again (a retried lost answer)',
    answer: { queue: 'mail', paused: true, pausedAt: '+0' },
  },
  {
    op: 'pause reports (no rows yet)',
    answer: { queue: 'reports', paused: true, pausedAt: '+1000' },
  },
  {
    op: 'list',
    answer: [
      { queue: 'mail', paused: true, pausedAt: '+0' },
      { queue: 'reports', paused: true, pausedAt: '+1000' },
    ],
  },
  { op: 'enqueue mail while paused', answer: { id: 'job2', runId: 'run2', deduped: false } },
  { op: 'claim mail and reports', answer: [] },
  { op: 'pause mail as tenant a', answer: tenantRefused },
  { op: 'resume mail as tenant a', answer: tenantRefused },
  {
    op: 'pause an empty queue name',
    answer: {
      error: { code: 'JOB_INVALID', meta: { field: 'queue', reason: 'must not be empty' } },
    },
  },
  { op: 'resume mail', answer: { queue: 'mail', paused: false } },
  { op: 'resume mail again', answer: { queue: 'mail', paused: false } },
  { op: 'list', answer: [{ queue: 'reports', paused: true, pausedAt: '+1000' }] },
  {
    op: 'claim one',
    answer: [
      {
        id: 'job1',
        runId: 'run1',
        name: 'send',
        queue: 'mail',
        payload: { n: 1 },
        state: 'running',
        priority: 0,
        attempts: 1,
        maxAttempts: 3,
        runAt: '+0',
        createdAt: '+0',
        updatedAt: '+1000',
        claimedBy: 'w1',
        claim: 1,
        visibleAt: '+31000',
        resumed: false,
      },
    ],
  },
  { op: 'pause mail', answer: { queue: 'mail', paused: true, pausedAt: '+1000' } },
  { op: 'ack job1 (running when paused)', answer: true },
  { op: 'claim mail and reports', answer: [] },
];

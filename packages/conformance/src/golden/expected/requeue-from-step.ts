import type { Transcript } from '../transcript.js';

const step = (name: string, at: string) => ({
  runId: 'run1',
  name,
  status: 'completed',
  output: { step: name },
  attempts: 1,
  startedAt: at,
  updatedAt: at,
});

const stepA = step('a', '+0');
const abc = [stepA, step('b', '+1000'), step('c', '+2000')];

export const requeueFromStep: Transcript = [
  { op: 'enqueue etl', answer: { id: 'job1', runId: 'run1', deduped: false } },
  {
    op: 'claim as w1',
    answer: [
      {
        id: 'job1',
        runId: 'run1',
        name: 'etl',
        queue: 'default',
        payload: { n: 1 },
        state: 'running',
        priority: 0,
        attempts: 1,
        maxAttempts: 3,
        runAt: '+0',
        createdAt: '+0',
        updatedAt: '+0',
        claimedBy: 'w1',
        claim: 1,
        visibleAt: '+30000',
        resumed: false,
      },
    ],
  },
  { op: 'put step a', answer: '(none)' },
  { op: 'advance 1000ms', answer: '+1000' },
  { op: 'put step b', answer: '(none)' },
  { op: 'advance 1000ms', answer: '+2000' },
  { op: 'put step c', answer: '(none)' },
  { op: 'list steps of run1', answer: abc },
  { op: 'nack job1 final', answer: true },
  { op: 'advance 1000ms', answer: '+3000' },
  {
    op: 'requeue job1 fromStep "x" (no such step)',
    answer: {
      error: { code: 'STEP_INVALID', meta: { jobId: 'job1', runId: 'run1', step: 'x' } },
    },
  },
  { op: 'list steps of run1', answer: abc },
  {
    op: 'requeue job1 fromStep "b"',
    answer: {
      id: 'job1',
      runId: 'run1',
      name: 'etl',
      queue: 'default',
      payload: { n: 1 },
      state: 'ready',
      priority: 0,
      attempts: 0,
      maxAttempts: 3,
      runAt: '+3000',
      createdAt: '+0',
      updatedAt: '+3000',
      claim: 1,
      lastError: { message: 'boom' },
    },
  },
  { op: 'list steps of run1', answer: [stepA] },
  {
    op: 'claim as w2',
    answer: [
      {
        id: 'job1',
        runId: 'run1',
        name: 'etl',
        queue: 'default',
        payload: { n: 1 },
        state: 'running',
        priority: 0,
        attempts: 1,
        maxAttempts: 3,
        runAt: '+3000',
        createdAt: '+0',
        updatedAt: '+3000',
        claimedBy: 'w2',
        claim: 2,
        visibleAt: '+33000',
        lastError: { message: 'boom' },
        resumed: false,
      },
    ],
  },
  { op: 'list steps of run1', answer: [stepA] },
  { op: 'get step b of run1', answer: '(none)' },
];

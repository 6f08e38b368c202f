import type { Transcript } from '../transcript.js';

const notFound = (jobId: string) => ({ error: { code: 'JOB_NOT_FOUND', meta: { jobId } } });

/** The fields every job of the scenario shares: name mail, key order-7, tenant a. */
const mail = (n: number) => ({
  id: `job${n}`,
  runId: `run${n}`,
  name: 'mail',
  queue: 'default',
  payload: { n },
  priority: 0,
  maxAttempts: 3,
});
const keyed = { idempotencyKey: 'order-7', tenantId: 'a' };

export const deleteAnswers: Transcript = [
  { op: 'enqueue mail keyed order-7', answer: { id: 'job1', runId: 'run1', deduped: false } },
  {
    op: 'claim',
    answer: [
      {
        ...mail(1),
        state: 'running',
        attempts: 1,
        runAt: '+0',
        createdAt: '+0',
        updatedAt: '+0',
        claimedBy: 'w1',
        claim: 1,
        visibleAt: '+30000',
        ...keyed,
        resumed: false,
      },
    ],
  },
  {
    op: 'delete job1 (running)',
    answer: { error: { code: 'JOB_NOT_DELETABLE', meta: { jobId: 'job1', state: 'running' } } },
  },
  { op: "ack job1 with its worker's fence", answer: true },
  { op: 'advance 1000ms', answer: '+1000' },
  {
    op: 'delete job1 (completed)',
    answer: {
      ...mail(1),
      state: 'completed',
      attempts: 1,
      runAt: '+0',
      createdAt: '+0',
      updatedAt: '+0',
      finishedAt: '+0',
      claim: 1,
      ...keyed,
    },
  },
  { op: 'delete job1 again (a retry after a lost answer)', answer: notFound('job1') },
  {
    op: 'enqueue mail keyed order-7 due in 60s',
    answer: { id: 'job2', runId: 'run2', deduped: false },
  },
  { op: 'delete job2 as tenant b', answer: notFound('job2') },
  {
    op: 'delete job2 (delayed)',
    answer: {
      ...mail(2),
      state: 'delayed',
      attempts: 0,
      runAt: '+60000',
      createdAt: '+1000',
      updatedAt: '+1000',
      claim: 0,
      ...keyed,
    },
  },
  {
    op: 'enqueue mail keyed order-7 again: the key is free',
    answer: { id: 'job3', runId: 'run3', deduped: false },
  },
  { op: 'delete an id nobody queued', answer: notFound('job4') },
  { op: 'list', answer: ['job3'] },
];

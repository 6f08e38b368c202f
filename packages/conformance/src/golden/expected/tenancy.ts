import type { Transcript } from '../transcript.js';

const notFound = (jobId: string) => ({ error: { code: 'JOB_NOT_FOUND', meta: { jobId } } });

const job1 = {
  id: 'job1',
  runId: 'run1',
  name: 'mail',
  queue: 'default',
  payload: { n: 1 },
  state: 'delayed',
  priority: 0,
  attempts: 0,
  maxAttempts: 3,
  runAt: '+60000',
  createdAt: '+0',
  updatedAt: '+0',
  claim: 0,
  tenantId: 'a',
};

// Tenant b's answers about job1 equal its answers about an id nobody queued (job3).
export const tenancy: Transcript = [
  {
    op: 'enqueue mail for tenant a, due in 60s',
    answer: { id: 'job1', runId: 'run1', deduped: false },
  },
  { op: 'enqueue mail with no tenant', answer: { id: 'job2', runId: 'run2', deduped: false } },
  { op: 'get job1 as tenant b', answer: '(none)' },
  { op: 'get an id nobody queued as tenant b', answer: '(none)' },
  { op: 'cancel job1 as tenant b', answer: notFound('job1') },
  { op: 'cancel an id nobody queued as tenant b', answer: notFound('job3') },
  { op: 'promote job1 as tenant b', answer: notFound('job1') },
  { op: 'promote an id nobody queued as tenant b', answer: notFound('job3') },
  { op: 'requeue job1 as tenant b', answer: notFound('job1') },
  { op: 'requeue an id nobody queued as tenant b', answer: notFound('job3') },
  { op: 'get job2 (no tenant) as tenant b', answer: '(none)' },
  { op: 'cancel job2 (no tenant) as tenant b', answer: notFound('job2') },
  { op: 'get job1 as tenant a', answer: job1 },
  { op: 'get job1 naming no tenant', answer: job1 },
  {
    op: 'promote job1 as tenant a',
    answer: { ...job1, state: 'ready', runAt: '+0' },
  },
];

import type { Transcript } from '../transcript.js';

const line = (seq: number, attempt: number, at: string, level: string, message: string) => ({
  seq,
  attempt,
  at,
  level,
  message,
});

const one1 = line(1, 1, '+10', 'info', 'one 1');
const one2 = line(2, 1, '+11', 'info', 'one 2');
const one3 = line(3, 1, '+12', 'warn', 'one 3');

const claimed = (attempts: number, claim: number, extra: object = {}) => [
  {
    id: 'job1',
    runId: 'run1',
    name: 'report',
    queue: 'default',
    payload: { n: 1 },
    state: 'running',
    priority: 0,
    attempts,
    maxAttempts: 2,
    runAt: '+0',
    createdAt: '+0',
    updatedAt: '+0',
    claimedBy: 'w1',
    claim,
    visibleAt: '+30000',
    ...extra,
    tenantId: 'a',
    resumed: false,
  },
];

export const jobLogs: Transcript = [
  { op: 'enqueue job1, two attempts', answer: { id: 'job1', runId: 'run1', deduped: false } },
  { op: 'claim', answer: claimed(1, 1) },
  { op: 'append 3 lines (from 0)', answer: true },
  { op: 'append the same batch again (its answer was lost)', answer: true },
  { op: 'append with another worker’s fence', answer: false },
  { op: 'list job1', answer: { lines: [one1, one2, one3], dropped: 0 } },
  { op: 'list job1, limit 2', answer: { lines: [one1, one2], next: 2, dropped: 0 } },
  { op: 'list job1 after 2 as tenant a', answer: { lines: [one3], dropped: 0 } },
  {
    op: 'list job1 as tenant b',
    answer: { error: { code: 'JOB_NOT_FOUND', meta: { jobId: 'job1' } } },
  },
  {
    op: 'list an id nobody queued',
    answer: { error: { code: 'JOB_NOT_FOUND', meta: { jobId: 'job2' } } },
  },
  { op: 'nack job1 (retry)', answer: true },
  { op: 'claim', answer: claimed(2, 2, { lastError: { message: 'again' } }) },
  { op: 'append with the first attempt’s fence', answer: false },
  { op: 'append 2 lines with the second attempt’s fence (from 0)', answer: true },
  { op: 'ack job1', answer: true },
  { op: 'append after the ack', answer: false },
  {
    op: 'list job1 after 1',
    answer: {
      lines: [one2, one3, line(4, 2, '+30', 'info', 'two 1'), line(5, 2, '+31', 'warn', 'two 2')],
      dropped: 0,
    },
  },
  {
    op: 'list job1, limit 501',
    answer: {
      error: { code: 'JOB_PAGE_INVALID', meta: { reason: 'limit', limit: 501, maxPage: 500 } },
    },
  },
  {
    op: 'append no lines',
    answer: {
      error: {
        code: 'JOB_INVALID',
        meta: { field: 'lines', reason: 'must hold at least one line' },
      },
    },
  },
];

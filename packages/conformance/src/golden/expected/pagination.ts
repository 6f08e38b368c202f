import type { Transcript } from '../transcript.js';

const enqueued = (n: number) => ({
  op: `enqueue page ${n}`,
  answer: { id: `job${n}`, runId: `run${n}`, deduped: false },
});

export const pagination: Transcript = [
  enqueued(1),
  enqueued(2),
  { op: 'advance 1000ms', answer: '+1000' },
  enqueued(3),
  enqueued(4),
  { op: 'advance 1000ms', answer: '+2000' },
  enqueued(5),
  { op: 'advance 1000ms', answer: '+3000' },
  enqueued(6),
  enqueued(7),
  // Newest first; job6/job7 and job3/job4 share a createdAt, so insertion order decides.
  { op: 'list limit 3', answer: { jobs: ['job7', 'job6', 'job5'], next: 'cursor' } },
  {
    op: 'list limit 3 after page 1',
    answer: { jobs: ['job4', 'job3', 'job2'], next: 'cursor', prev: 'cursor' },
  },
  { op: 'list limit 3 after page 2', answer: { jobs: ['job1'], prev: 'cursor' } },
  {
    op: 'list limit 3 before page 3',
    answer: { jobs: ['job4', 'job3', 'job2'], next: 'cursor', prev: 'cursor' },
  },
  { op: 'list limit 3 before that', answer: { jobs: ['job7', 'job6', 'job5'], next: 'cursor' } },
  {
    op: 'list after a forged cursor',
    answer: { error: { code: 'JOB_PAGE_INVALID', meta: { reason: 'cursor' } } },
  },
  {
    op: 'list limit 501',
    answer: {
      error: { code: 'JOB_PAGE_INVALID', meta: { reason: 'limit', limit: 501, maxPage: 500 } },
    },
  },
];

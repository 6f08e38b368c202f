import type { Transcript } from '../transcript.js';

const claimed = (n: number, name: string) => [
  {
    id: `job${n}`,
    runId: `run${n}`,
    name,
    queue: 'default',
    payload: { n },
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
];

const notCancellable = (jobId: string, state: string) => ({
  error: { code: 'JOB_NOT_CANCELLABLE', meta: { jobId, state } },
});

const job3Cancelled = {
  id: 'job3',
  runId: 'run3',
  name: 'c',
  queue: 'default',
  payload: { n: 3 },
  state: 'cancelled',
  priority: 0,
  attempts: 1,
  maxAttempts: 3,
  runAt: '+0',
  createdAt: '+0',
  updatedAt: '+1000',
  finishedAt: '+1000',
  claim: 1,
};

export const cancelRefusals: Transcript = [
  { op: 'enqueue a', answer: { id: 'job1', runId: 'run1', deduped: false } },
  { op: 'claim', answer: claimed(1, 'a') },
  { op: 'ack job1', answer: true },
  { op: 'cancel job1 (completed)', answer: notCancellable('job1', 'completed') },
  { op: 'enqueue b', answer: { id: 'job2', runId: 'run2', deduped: false } },
  { op: 'claim', answer: claimed(2, 'b') },
  { op: 'nack job2 final', answer: true },
  { op: 'cancel job2 (dead)', answer: notCancellable('job2', 'dead') },
  { op: 'enqueue c', answer: { id: 'job3', runId: 'run3', deduped: false } },
  { op: 'claim', answer: claimed(3, 'c') },
  { op: 'advance 1000ms', answer: '+1000' },
  { op: 'cancel job3 (running)', answer: job3Cancelled },
  { op: "ack job3 with its worker's fence", answer: false },
  { op: 'get job3', answer: job3Cancelled },
  { op: 'cancel job3 (cancelled)', answer: notCancellable('job3', 'cancelled') },
  {
    op: 'cancel an id nobody queued',
    answer: { error: { code: 'JOB_NOT_FOUND', meta: { jobId: 'job4' } } },
  },
];

import type { Transcript } from '../transcript.js';

const history = {
  records: [
    {
      seq: 1,
      attempt: 1,
      claim: 1,
      workerId: 'w1',
      claimedAt: '+0',
      endedAt: '+100',
      outcome: 'retried',
      // 'too long: ' is 10 bytes; of the 1,014 bytes left a '€' (3 bytes) fits 338 times.
      error: { code: 'APP_FAILED', message: `too long: ${'€'.repeat(338)}`, stack: 'at a' },
    },
    // Its lease lapsed and w3's claim took the row again: no error, ended at that claim.
    {
      seq: 2,
      attempt: 2,
      claim: 2,
      workerId: 'w2',
      claimedAt: '+100',
      endedAt: '+1600',
      outcome: 'lapsed',
    },
    {
      seq: 3,
      attempt: 3,
      claim: 3,
      workerId: 'w3',
      claimedAt: '+1600',
      endedAt: '+1610',
      outcome: 'suspended',
    },
    // The resumed run keeps attempt 3 under the next claim.
    {
      seq: 4,
      attempt: 3,
      claim: 4,
      workerId: 'w1',
      claimedAt: '+1660',
      endedAt: '+1665',
      outcome: 'cancelled',
    },
  ],
  dropped: 0,
};

export const attemptHistory: Transcript = [
  {
    op: 'enqueue job1, 3 attempts, tenant acme',
    answer: { id: 'job1', runId: 'run1', deduped: false },
  },
  { op: 'history of job1, never claimed', answer: { records: [], dropped: 0 } },
  { op: 'claim as w1', answer: [{ id: 'job1', claim: 1, attempts: 1, resumed: false }] },
  { op: 'advance 100ms', answer: '+100' },
  { op: 'nack job1 as w1 (attempts remain)', answer: true },
  { op: 'claim as w2', answer: [{ id: 'job1', claim: 2, attempts: 2, resumed: false }] },
  { op: 'advance 1500ms', answer: '+1600' },
  { op: 'claim as w3', answer: [{ id: 'job1', claim: 3, attempts: 3, resumed: false }] },
  { op: "ack with w2's fence (its lease lapsed, re-claimed)", answer: false },
  { op: 'advance 10ms', answer: '+1610' },
  { op: 'suspend job1 as w3 until now + 50', answer: true },
  { op: 'advance 50ms', answer: '+1660' },
  { op: 'claim as w1', answer: [{ id: 'job1', claim: 4, attempts: 3, resumed: true }] },
  { op: 'advance 5ms', answer: '+1665' },
  { op: 'cancel job1 while it runs', answer: 'cancelled' },
  { op: "ack with the resumed run's fence (cancelled)", answer: false },
  { op: 'history of job1', answer: history },
  { op: 'history of job1 naming tenant acme', answer: history },
  // Another tenant sees no history, exactly as `get` sees no job.
  { op: 'history of job1 naming tenant globex', answer: '(none)' },
  { op: 'advance 1ms', answer: '+1666' },
  { op: 'purge cancelled job1', answer: 1 },
  { op: 'history of job1 after the purge', answer: '(none)' },
];

import type { Transcript } from '../transcript.js';

const running = (n: number, name: string, workerId: string, claim: number, at: number) => ({
  id: `job${n}`,
  runId: `run${n}`,
  name,
  queue: 'default',
  payload: { n },
  state: 'running',
  priority: 0,
  attempts: claim,
  maxAttempts: 2,
  runAt: '+0',
  createdAt: '+0',
  updatedAt: `+${at}`,
  claimedBy: workerId,
  claim,
  visibleAt: `+${at + 10_000}`,
  resumed: false,
});

const buried = (n: number, name: string, state: 'dead' | 'failed') => ({
  id: `job${n}`,
  runId: `run${n}`,
  name,
  queue: 'default',
  payload: { n },
  state,
  priority: 0,
  attempts: 2,
  maxAttempts: 2,
  runAt: '+0',
  createdAt: '+0',
  updatedAt: '+20000',
  finishedAt: '+20000',
  claim: 2,
  lastError: {
    code: 'LEASE_LAPSED',
    message: 'the lease lapsed on the final attempt and no attempts remain',
  },
});

const job1Dead = buried(1, 'flaky', 'dead');
const job2Failed = buried(2, 'fragile', 'failed');

export const leaseBurial: Transcript = [
  { op: 'enqueue flaky, 2 attempts', answer: { id: 'job1', runId: 'run1', deduped: false } },
  { op: 'enqueue fragile, 2 attempts', answer: { id: 'job2', runId: 'run2', deduped: false } },
  {
    op: 'claim 2 as w1',
    answer: [running(1, 'flaky', 'w1', 1, 0), running(2, 'fragile', 'w1', 1, 0)],
  },
  { op: 'advance 10000ms', answer: '+10000' },
  {
    op: 'claim 2 as w2 (both leases lapsed, attempts remain)',
    answer: [running(1, 'flaky', 'w2', 2, 10_000), running(2, 'fragile', 'w2', 2, 10_000)],
  },
  { op: 'advance 10000ms', answer: '+20000' },
  { op: "ack job1 with w1's fence (re-claimed since)", answer: false },
  // Final attempts lapsed: nothing is handed out, both are buried in the claim's own change.
  { op: 'claim 2 as w3, dropExhausted [fragile] (final attempts lapsed)', answer: [] },
  { op: 'onExhausted calls', answer: [[job1Dead, job2Failed]] },
  { op: 'get job1', answer: job1Dead },
  { op: 'get job2', answer: job2Failed },
  { op: 'claim 2 as w3 again', answer: [] },
  { op: 'onExhausted calls', answer: [[job1Dead, job2Failed]] },
];

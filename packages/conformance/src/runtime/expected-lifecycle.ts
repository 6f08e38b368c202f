import type { Transcript } from '../golden/transcript.js';

/** The transcripts of the lifecycle scenarios: `stalled`, and a cancel heard at once. */
export const lifecycleExpected: Readonly<Record<string, Transcript>> = {
  'stalled-reclaim': [
    {
      op: 'orphan settled',
      answer: { name: 'sync', state: 'completed', attempts: 2, result: 'orphan synced' },
    },
    {
      op: 'flaky settled',
      answer: {
        name: 'sync',
        state: 'completed',
        attempts: 2,
        result: 'flaky synced',
        lastError: { message: 'first attempt fails' },
      },
    },
    {
      op: 'fresh settled',
      answer: { name: 'sync', state: 'completed', attempts: 1, result: 'fresh synced' },
    },
    {
      op: 'stalled events',
      answer: [
        {
          name: 'sync',
          payload: 'orphan',
          attempt: 2,
          lapsed: { workerId: 'crashed', attempt: 1, outcome: 'lapsed', claimBefore: true },
        },
      ],
    },
    { op: 'attempt-history reads', answer: 2 },
  ],
  'cancel-heard-at-once': [
    {
      op: 'cancel through another instance',
      answer: { name: 'long', state: 'cancelled', attempts: 1 },
    },
    { op: 'what the handler saw', answer: { started: true, aborted: true } },
    {
      op: 'job after the handler returned',
      answer: { name: 'long', state: 'cancelled', attempts: 1 },
    },
  ],
};

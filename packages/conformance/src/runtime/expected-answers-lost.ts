import type { Transcript } from '../golden/transcript.js';

/** Lease renewals that throw and ones that hang end the same way. */
const LEASE_RENEWAL_ABORTS: Transcript = [
  {
    op: 'settled',
    answer: { name: 'work', state: 'completed', attempts: 2, result: 'taken over' },
  },
  { op: 'what the first handler saw', answer: 'JOB_ABORTED' },
  { op: 'aborted before its lease ran out', answer: true },
  { op: 'steps the first attempt began after the takeover', answer: [] },
  { op: 'lease-lost events', answer: ['JOB_ABORTED'] },
];

/**
 * The transcripts of the scenarios of issue 21: settles that landed but whose answer was lost,
 * and slot renewals that keep failing; and of issue 22's lease renewals that keep failing.
 */
export const answersLostExpected: Readonly<Record<string, Transcript>> = {
  'nack-answer-lost': [
    {
      op: 'doomed',
      answer: {
        name: 'doomed',
        state: 'dead',
        attempts: 1,
        lastError: { message: 'the only attempt fails' },
      },
    },
    {
      op: 'dropped',
      answer: {
        name: 'dropped',
        state: 'failed',
        attempts: 1,
        lastError: { message: 'dropped on failure' },
      },
    },
    {
      op: 'flaky settled',
      answer: {
        name: 'flaky',
        state: 'completed',
        attempts: 2,
        result: 'second attempt answers',
        lastError: { message: 'first attempt fails' },
      },
    },
    {
      op: 'worker events',
      answer: ['dead:doomed', 'failed:dropped', 'retrying:flaky', 'completed:flaky'],
    },
    {
      op: 'onSettled was told',
      answer: [
        'doomed:dead (the only attempt fails)',
        'dropped:failed (dropped on failure)',
        'flaky:retrying (first attempt fails)',
        'flaky:completed',
      ],
    },
    { op: 'nackMany calls (each first send lost its answer)', answer: 6 },
  ],
  'suspend-answer-lost': [
    { op: 'nap parked', answer: { name: 'nap', state: 'suspended', attempts: 1 } },
    { op: 'worker events while parked', answer: ['suspended:nap:step'] },
    { op: 'nap settled', answer: { name: 'nap', state: 'completed', attempts: 1, result: 'woke' } },
    { op: 'worker events', answer: ['suspended:nap:step', 'completed:nap'] },
    { op: 'runs of the handler', answer: 2 },
  ],
  'failing-slot-renewal-aborts': [
    { op: 'what the first handler saw', answer: 'JOB_ABORTED' },
    { op: 'most handlers of the key at once', answer: 1 },
    { op: 'first settled', answer: { name: 'sync', state: 'completed', attempts: 1, result: 1 } },
    { op: 'second settled', answer: { name: 'sync', state: 'completed', attempts: 1, result: 2 } },
    { op: 'lease-lost events', answer: ['JOB_ABORTED'] },
    { op: 'most handlers of the key at once, in the end', answer: 1 },
  ],
  'hanging-slot-renewal-aborts': [
    { op: 'what the first handler saw', answer: 'JOB_ABORTED' },
    { op: 'most handlers of the key at once', answer: 1 },
    { op: 'first settled', answer: { name: 'sync', state: 'completed', attempts: 1, result: 1 } },
    { op: 'second settled', answer: { name: 'sync', state: 'completed', attempts: 1, result: 2 } },
    { op: 'lease-lost events', answer: ['JOB_ABORTED'] },
    { op: 'most handlers of the key at once, in the end', answer: 1 },
  ],
  'failing-lease-renewal-aborts': LEASE_RENEWAL_ABORTS,
  'hanging-lease-renewal-aborts': LEASE_RENEWAL_ABORTS,
};

import type { Transcript } from '../golden/transcript.js';

/** The transcripts of the concurrency-slot scenarios (slots.ts). */
export const slotsExpected: Readonly<Record<string, Transcript>> = {
  'resume-takes-no-rate-slot': [
    { op: 'nap settled', answer: { name: 'nap', state: 'completed', attempts: 1, result: 'woke' } },
    { op: 'resumed within 2 s, well before the rate interval ends', answer: true },
    { op: 'why it was parked', answer: ['step'] },
  ],
  'lost-slot-aborts-attempt': [
    { op: 'what the handler saw', answer: 'JOB_ABORTED' },
    { op: 'lease-lost events', answer: ['JOB_ABORTED'] },
    {
      op: 'sync settled',
      answer: { name: 'sync', state: 'completed', attempts: 1, result: 'synced' },
    },
    {
      op: 'runs of the handler',
      answer: [
        { attempt: 1, resumed: false },
        { attempt: 1, resumed: true },
      ],
    },
  ],
  'slot-held-until-handler-returns': [
    {
      op: 'second job while the first handler still runs',
      answer: { started: false, settled: false },
    },
    { op: 'second settled', answer: { name: 'sync', state: 'completed', attempts: 1, result: 2 } },
    { op: 'most handlers of the key at once', answer: 1 },
  ],
  'slot-blip-charges-no-attempt': [
    {
      op: 'sync settled',
      answer: { name: 'sync', state: 'completed', attempts: 1, result: 'synced' },
    },
    { op: 'attempts the handler saw', answer: [1] },
    { op: 'why it was parked', answer: ['key-busy'] },
  ],
};

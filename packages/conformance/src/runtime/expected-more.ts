import type { Transcript } from '../golden/transcript.js';

/** The transcripts of the runtime scenarios added for issue 9 (blips, wake-ups, suspensions). */
export const moreRuntimeExpected: Readonly<Record<string, Transcript>> = {
  'swallowed-sleep-still-suspends': [
    { op: 'nap parked', answer: { name: 'nap', state: 'suspended', attempts: 1 } },
    { op: 'nap before its wake', answer: { name: 'nap', state: 'suspended', attempts: 1 } },
    { op: 'the sleep step', answer: 'sleeping' },
    {
      op: 'nap settled',
      answer: { name: 'nap', state: 'completed', attempts: 1, result: 'returned normally' },
    },
    { op: 'what ran, in order', answer: ['swallowed', 'after refused', 'after ran'] },
  ],
};

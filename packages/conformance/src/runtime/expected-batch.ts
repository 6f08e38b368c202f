import type { Transcript } from '../golden/transcript.js';

/** The transcript of the batch job scenario (issue 25, batch handlers). */
export const batchExpected: Readonly<Record<string, Transcript>> = {
  'batch-runs-together': [
    {
      op: 'job 1 settled',
      answer: { name: 'index', state: 'completed', attempts: 1, result: 'indexed a' },
    },
    {
      op: 'job 2 settled',
      answer: { name: 'index', state: 'completed', attempts: 1, result: 'indexed b' },
    },
    {
      op: 'job 3 settled',
      answer: {
        name: 'index',
        state: 'completed',
        attempts: 2,
        result: 'indexed c',
        lastError: { message: 'c was refused' },
      },
    },
    { op: 'handler calls', answer: [['a#1', 'b#1', 'c#1'], ['c#2']] },
  ],
};

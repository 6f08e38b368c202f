import type { Transcript } from '../golden/transcript.js';

/** The transcripts of the flow scenarios (issue 25, flows). */
export const flowsExpected: Readonly<Record<string, Transcript>> = {
  'flow-parent-reads-children': [
    {
      op: 'parent settled',
      answer: {
        name: 'book',
        state: 'completed',
        attempts: 1,
        result: ['page 1', 'page 2', 'dead: no ink'],
      },
    },
    {
      op: 'child 1',
      answer: {
        name: 'render',
        state: 'completed',
        attempts: 1,
        result: 'page 1',
        queue: 'pages',
        namesParent: true,
      },
    },
    {
      op: 'child 2',
      answer: {
        name: 'render',
        state: 'completed',
        attempts: 1,
        result: 'page 2',
        queue: 'pages',
        namesParent: true,
      },
    },
    {
      op: 'child 3',
      answer: {
        name: 'refuse',
        state: 'dead',
        attempts: 1,
        lastError: { message: 'no ink' },
        queue: 'default',
        namesParent: true,
      },
    },
  ],
  'invoke-answers-child': [
    {
      op: 'parent settled',
      answer: {
        name: 'parent',
        state: 'completed',
        attempts: 2,
        result: ['page 9', 'JOB_FAILED dead'],
        lastError: { message: 'the parent fails once after its children' },
      },
    },
    {
      op: 'children',
      answer: [
        { name: 'refuse', state: 'dead', attempts: 1, lastError: { message: 'closed' } },
        { name: 'render', state: 'completed', attempts: 1, result: 'page 9' },
      ],
    },
  ],
};

import type { Transcript } from '../golden/transcript.js';

const superseded = {
  code: 'JOB_SUPERSEDED',
  message: 'a newer job of its debounce key (or whenBusy replace key) was enqueued since',
};

/** The transcripts of the busy-key scenarios: debounce, throttle, and whenBusy replace and skip. */
export const newestWinsExpected: Readonly<Record<string, Transcript>> = {
  'debounce-runs-the-last': [
    { op: 'last settled', answer: { name: 'sync', state: 'completed', attempts: 1 } },
    {
      op: 'first settled',
      answer: { name: 'sync', state: 'cancelled', attempts: 1, lastError: superseded },
    },
    {
      op: 'second settled',
      answer: { name: 'sync', state: 'cancelled', attempts: 1, lastError: superseded },
    },
    { op: 'handler runs (quiet ms before the run)', answer: [{ n: 3, quietMs: 1_000 }] },
  ],
  'replace-runs-the-newest': [
    { op: 'third settled', answer: { name: 'render', state: 'completed', attempts: 1 } },
    {
      op: 'second settled',
      answer: { name: 'render', state: 'cancelled', attempts: 1, lastError: superseded },
    },
    { op: 'first settled', answer: { name: 'render', state: 'completed', attempts: 1 } },
    { op: 'handler runs', answer: [1, 3] },
  ],
  'throttle-one-per-window': [
    { op: 'a second enqueue in the window', answer: { sameJob: true, deduped: true } },
    { op: 'another key', answer: { sameJob: false, deduped: false } },
    { op: 'the next window', answer: { sameJob: false, deduped: false } },
    { op: 'handler runs', answer: [1, 3, 4] },
  ],
  'skip-cancels-busy': [
    {
      op: 'busy settled',
      answer: {
        name: 'refresh',
        state: 'cancelled',
        attempts: 1,
        lastError: {
          code: 'JOB_SKIPPED',
          message: 'its concurrency key was busy (whenBusy: skip)',
        },
      },
    },
    { op: 'first settled', answer: { name: 'refresh', state: 'completed', attempts: 1 } },
    { op: 'after settled', answer: { name: 'refresh', state: 'completed', attempts: 1 } },
    { op: 'handler runs', answer: [1, 3] },
    { op: 'cancelled events', answer: ['JOB_SKIPPED'] },
  ],
};

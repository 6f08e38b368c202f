import type { Transcript } from '../golden/transcript.js';

/**
 * The transcripts of a worker's waits: a swallowed sleep, a settle through a blip, wake-ups on a
 * freed slot and a due time, event gaps, and the prefetch handed back on stop.
 */
export const workerWaitsExpected: Readonly<Record<string, Transcript>> = {
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
  'settle-survives-blip': [
    {
      op: 'report settled',
      answer: { name: 'report', state: 'completed', attempts: 1, result: 'sent' },
    },
    { op: 'what ran', answer: ['build', 'finish'] },
    { op: 'calls the blip failed once', answer: { suspend: 2, ackMany: 2 } },
    { op: 'settles given up', answer: [] },
  ],
  'freed-slot-starts-next-job': [
    { op: 'jobs completed', answer: 10 },
    { op: 'most running at once', answer: 1 },
    { op: 'kit clock moved, ms', answer: 0 },
    { op: 'claims per job below 1', answer: true },
    { op: 'bounces', answer: 0 },
    { op: 'slot acquires per job below 0.5', answer: true },
  ],
  'due-times-wake-the-worker': [
    {
      op: 'before any is due',
      answer: { later: 'delayed', flaky: 'delayed', nap: 'suspended' },
    },
    { op: 'at +300 ms', answer: { later: 'completed', flaky: 'delayed', nap: 'suspended' } },
    { op: 'at +500 ms', answer: { later: 'completed', flaky: 'completed', nap: 'suspended' } },
    { op: 'at +700 ms', answer: { later: 'completed', flaky: 'completed', nap: 'completed' } },
  ],
  'event-in-looks-millisecond': [
    {
      op: 'invoice settled',
      answer: { name: 'invoice', state: 'completed', attempts: 1, result: 'paid' },
    },
    { op: 'what the wait answered', answer: [{ invoice: 'inv-1', amount: 5 }] },
  ],
  'unmatched-event-does-not-spin': [
    {
      op: 'invoice parked',
      answer: { name: 'invoice', state: 'suspended', attempts: 1, waitFor: 'invoice.paid' },
    },
    { op: 'claimed at most twice while parked', answer: true },
    { op: 'claimed once more by the matching publish', answer: true },
    { op: 'what the wait answered', answer: [{ invoice: 'inv-1', amount: 9 }] },
  ],
  'two-waits-take-two-events': [
    {
      op: 'after one tick',
      answer: { name: 'twice', state: 'suspended', attempts: 1, waitFor: 'tick' },
    },
    {
      op: 'settled',
      answer: { name: 'twice', state: 'completed', attempts: 1, result: 'two ticks' },
    },
    { op: 'ticks taken', answer: { first: { n: 1 }, second: { n: 2 } } },
  ],
  'prefetch-hands-back-on-stop': [
    {
      op: 'states while one runs and two wait',
      answer: ['running', 'running', 'running', 'ready'],
    },
    { op: 'handlers started', answer: [0] },
    {
      op: 'after stop',
      answer: [
        { name: 'queued', state: 'ready', attempts: 1 },
        { name: 'queued', state: 'ready', attempts: 1 },
        { name: 'queued', state: 'ready', attempts: 1 },
        { name: 'queued', state: 'ready', attempts: 0 },
      ],
    },
    {
      op: 'claimed again',
      answer: [
        { payload: 0, attempts: 1, resumed: true },
        { payload: 1, attempts: 1, resumed: true },
        { payload: 2, attempts: 1, resumed: true },
        { payload: 3, attempts: 1, resumed: false },
      ],
    },
  ],
};

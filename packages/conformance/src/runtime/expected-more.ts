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

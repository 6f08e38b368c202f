import type { Transcript } from '../golden/transcript.js';

const MINUTE = 60_000;
const job = (minute: number, n: number) => ({
  slot: minute * MINUTE,
  tenantId: 'acme',
  payload: { n },
  state: 'completed',
});

/** The transcripts of the stored-schedule scenario (stored-schedule.ts). */
export const storedSchedulesExpected: Readonly<Record<string, Transcript>> = {
  'stored-schedule-slots-once': [
    // catchUp 1: its latest past slot (t0 itself) is owed at once.
    { op: 'stored', answer: { created: true, nextAt: '+0' } },
    { op: 'ticks at once', answer: { a: [[0, 'acme']], b: [] } },
    { op: 'ticks at minute 1', answer: { a: [[MINUTE, 'acme']], b: [] } },
    { op: 'ticks at minute 2', answer: { a: [[2 * MINUTE, 'acme']], b: [] } },
    // A new cron starts at its next slot after now (minute 2:30 → minute 4).
    { op: 'cron changed', answer: { revision: 5, nextAt: '+240000' } },
    { op: 'ticks at minute 3', answer: { a: [], b: [] } },
    { op: 'ticks at minute 4', answer: { a: [[4 * MINUTE, 'acme']], b: [] } },
    { op: 'ticks at minute 6, paused', answer: { a: [], b: [] } },
    // Resumed at minute 6:30: the next slot is minute 8; minute 6 is not run.
    { op: 'resumed', answer: { nextAt: '+480000' } },
    { op: 'ticks at minute 8', answer: { a: [[8 * MINUTE, 'acme']], b: [] } },
    { op: 'report jobs', answer: [job(0, 1), job(1, 1), job(2, 1), job(4, 2), job(8, 2)] },
  ],
};

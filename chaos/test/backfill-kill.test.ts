import { serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { runBackfillKill } from '../src/backfill/kill-run.ts';

// A throttled backfill over a PostgreSQL table with each pass and its cursor's commit in one
// transaction (pgBackfillTransaction), its worker SIGKILLed mid-run twice: the run completes,
// every item is processed once (the test's own count per item), none twice.
it('backfill: a run whose worker is SIGKILLed twice completes with every item processed exactly once', async () => {
  const report = await runBackfillKill({
    pgUrl: await serverUrl('pg'),
    rows: 20_000,
    batch: 500,
    rowsPerSecond: 8_000,
    // A pass holds its transaction ~40 of every ~60 ms: most kills land mid-pass.
    workMs: 40,
    workers: 2,
    kills: 2,
    deadlineMs: 90_000,
  });
  expect(report.kills).toBe(2);
  expect(report.run).toMatchObject({ status: 'completed', rowsDone: 20_000 });
  expect({ missing: report.missing, twice: report.twice, total: report.total }).toEqual({
    missing: 0,
    twice: 0,
    total: 20_000,
  });
  console.log(
    `backfill chaos: 20,000 items, ${report.kills} worker SIGKILLs, ${report.run?.passes} passes in ${report.elapsedMs} ms: 0 missing, 0 twice`,
  );
}, 120_000);

// Measures a large backfill through worker SIGKILLs on PostgreSQL: a table of ROWS items (1M by
// default), throttled, its worker killed twice mid-run; counts items processed 0 times and more
// than once with the test's own per-item counter. Run from chaos/:
//   pnpm exec tsx --conditions=@berth/source src/measure/backfill-pg.ts [rows] [rowsPerSecond]

import { serverUrl } from '@berth/test-servers';
import { runBackfillKill } from '../backfill/kill-run.ts';

const rows = Number(process.argv[2] ?? 1_000_000);
const rowsPerSecond = Number(process.argv[3] ?? 50_000);
const report = await runBackfillKill({
  pgUrl: await serverUrl('pg'),
  rows,
  batch: 5_000,
  rowsPerSecond,
  workMs: 20,
  workers: 2,
  kills: 2,
  deadlineMs: 30 * 60_000,
});
const run = report.run;
console.log(
  JSON.stringify(
    {
      rows,
      rowsPerSecond,
      status: run?.status,
      rowsDone: run?.rowsDone,
      passes: run?.passes,
      kills: report.kills,
      missing: report.missing,
      twice: report.twice,
      elapsedMs: report.elapsedMs,
      achievedRowsPerSecond: Math.round((rows / report.elapsedMs) * 1_000),
    },
    null,
    2,
  ),
);
process.exit(report.missing === 0 && report.twice === 0 && run?.status === 'completed' ? 0 : 1);

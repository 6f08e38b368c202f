// A backfill worker process: runs the chaos backfill's passes (each in one PostgreSQL
// transaction with its cursor's commit) until it is killed (the nemesis SIGKILLs workers).

import { createWorker } from '@berth/core';
import { createPgDriver } from '@berth/driver-pg';
import pg from 'pg';
import { chaosBackfill } from '../backfill/definition.ts';
import { startWhenReady } from './start-when-ready.ts';

interface BackfillWorkerSpec {
  readonly pgUrl: string;
  readonly schema: string;
  readonly batch: number;
  readonly rowsPerSecond: number;
  readonly workMs: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as BackfillWorkerSpec;
const pool = new pg.Pool({ connectionString: spec.pgUrl, max: 4 });
const driver = createPgDriver({ pool, schema: spec.schema });
const worker = createWorker({
  driver,
  jobs: [chaosBackfill({ pool, ...spec })],
  concurrency: 1,
  // The nemesis finds the process that holds the runner job by it.
  workerId: `backfill-${process.pid}`,
  // Short leases: a killed worker's run is taken over within a second or two.
  visibilityTimeoutMs: 1_500,
  pollIntervalMs: 100,
});

startWhenReady(worker);

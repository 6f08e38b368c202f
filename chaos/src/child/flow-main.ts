// A flow worker process: runs the flow chaos run's parents (step.invoke, step.children) and their
// children until it is killed (the run SIGKILLs workers mid-flight).

import { createWorker } from '@berth/core';
import { createPgDriver } from '@berth/driver-pg';
import pg from 'pg';
import { flowJobs } from '../flow/jobs.ts';
import { startWhenReady } from './start-when-ready.ts';

interface FlowWorkerSpec {
  readonly pgUrl: string;
  readonly schema: string;
  readonly workMs: number;
  readonly concurrency: number;
  readonly eventPollMs: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as FlowWorkerSpec;
const pool = new pg.Pool({ connectionString: spec.pgUrl, max: 6 });
const driver = createPgDriver({ pool, schema: spec.schema });
const { child, invoker, flowParent } = flowJobs(spec.workMs);
const worker = createWorker({
  driver,
  jobs: [invoker, flowParent, child],
  concurrency: spec.concurrency,
  // The run picks a process that is running a job by it.
  workerId: `flow-${process.pid}`,
  // Short leases: a killed worker's jobs are taken over within a second or two.
  visibilityTimeoutMs: 1_500,
  pollIntervalMs: 100,
  // A parked parent looks at its children again this often, in case a wake was lost (a kill
  // between a child's settle and its announcement).
  eventPollMs: spec.eventPollMs,
});

startWhenReady(worker);

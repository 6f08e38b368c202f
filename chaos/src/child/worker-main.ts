// A worker process: `createWorker` over the chaos jobs, recording into its own ledger file.

import { createWorker } from '@berth/core';
import { now } from '../ledger/events.ts';
import { openLedger } from '../ledger/write.ts';
import { chaosJobs } from './jobs.ts';
import { type ChildMessage, type ChildSpec, openDriver, type ParentMessage } from './spec.ts';
import { StepGate } from './step-gate.ts';

const spec = JSON.parse(process.argv[2] ?? '{}') as ChildSpec;
const tell = (message: ChildMessage) => process.send?.(message);
const ledger = openLedger(spec.ledgerDir);
const gate = new StepGate((count) => tell({ type: 'parked', count }));
process.on('message', (message: ParentMessage) => {
  if (message.type === 'hold') gate.hold();
  if (message.type === 'release') tell({ type: 'let-go', live: gate.release() });
});
const jobs = chaosJobs(ledger, tell, gate);
const driver = openDriver(spec.backend, spec.url);
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const worker = createWorker({
  driver,
  jobs: jobs.all,
  queues: spec.queues,
  concurrency: spec.concurrency,
  visibilityTimeoutMs: spec.leaseMs,
  pollIntervalMs: spec.pollIntervalMs ?? 200,
  keyBusyDelayMs: 100,
  logger: silent,
});
const ids = (job: { id: string; runId: string; name: string; claim: number }) => ({
  job: job.id,
  runId: job.runId,
  name: job.name,
  claim: job.claim,
});
worker.on('completed', ({ job }) => ledger.append({ ev: 'completed', ...ids(job) }, now()));
worker.on('lease-lost', ({ job }) => ledger.append({ ev: 'lease-lost', ...ids(job) }, now()));

// The parent is gone (it died or gave up): nobody will read this process's work, so it ends.
process.once('disconnect', () => process.exit(1));

process.once('SIGTERM', () => {
  worker
    .stop({ graceMs: 2_000 })
    .then(() => driver.close())
    .finally(() => process.exit(0));
});

// The server may be down at this moment (a crash nemesis): keep trying to start.
async function start(): Promise<void> {
  for (;;) {
    try {
      await worker.start();
      tell({ type: 'ready' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
void start();

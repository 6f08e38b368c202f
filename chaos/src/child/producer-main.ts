// A producer process: enqueues `chaos.steps` jobs like the parent does, and records in its ledger
// each id it tried and whether its enqueue was acknowledged (it runs on the primary's side of a
// partition, apart from the parent).

import { createClient } from '@berth/core';
import { enqueueSpread, noneEnqueued } from '../enqueue.ts';
import { now } from '../ledger/events.ts';
import { openLedger } from '../ledger/write.ts';
import { chaosJobs, STEPS_JOB } from './jobs.ts';
import { type ChildMessage, type ChildSpec, openDriver } from './spec.ts';

/** What a producer is told beyond a worker's spec. */
export interface ProducerSpec extends ChildSpec {
  readonly role: 'producer';
  readonly jobs: number;
  readonly spreadMs: number;
  /** The first payload's `n`: the producer's jobs are told apart from the parent's. */
  readonly firstN: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as ProducerSpec;
const tell = (message: ChildMessage) => process.send?.(message);
const ledger = openLedger(spec.ledgerDir);
const jobs = chaosJobs(ledger);
const driver = openDriver(spec.backend, spec.url);
const client = createClient({ driver, jobs: jobs.all });

const into = noneEnqueued();

process.once('disconnect', () => process.exit(1));

async function produce(): Promise<void> {
  tell({ type: 'ready' });
  await enqueueSpread({
    client,
    job: jobs.steps,
    payloads: Array.from({ length: spec.jobs }, (_, i) => ({ n: spec.firstN + i })),
    spreadMs: spec.spreadMs,
    into,
  });
  // Written once all are answered or given up: the producer is never killed mid-run.
  for (const id of into.ids) {
    const acknowledged = into.acknowledged.has(id);
    ledger.append(
      { ev: 'enqueued', job: id, runId: '', name: STEPS_JOB, claim: 0, acknowledged },
      // When it was answered, if it was.
      into.ackedAt.get(id) ?? now(),
    );
  }
  await driver.close().catch(() => {});
  process.exit(0);
}
void produce();

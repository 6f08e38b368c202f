import type { ClaimedJob, JobRecord } from '../contract/records.js';
import type { Worker } from '../runtime/worker/worker-types.js';
import { type MetricsMeter, meterOf } from './meter.js';
import type { MetricsHandle } from './queue-metrics.js';

export interface WorkerMetricsOptions {
  /** Default: `@berth/core`'s meter from the global meter provider. */
  readonly meter?: MetricsMeter;
}

const EXAMPLE = 'await instrumentWorker(worker, { meter: meterProvider.getMeter("berth") })';

type Outcome = 'completed' | 'retrying' | 'failed' | 'dead' | 'cancelled';

/**
 * Records what `worker` does, from its events: attempts ended by outcome
 * (`berth.attempts`, with `berth.job.name` and `berth.job.outcome`), how long each ran
 * (`berth.attempt.duration`, seconds, from its start to its settle), the handlers running
 * now (`berth.worker.active`) and the jobs it took again after a lapsed lease
 * (`berth.jobs.stalled`, from the `stalled` event). A job the worker settles without running (skipped, superseded)
 * counts as `cancelled` with no duration.
 */
export async function instrumentWorker(
  worker: Worker<unknown>,
  options: WorkerMetricsOptions = {},
): Promise<MetricsHandle> {
  const meter = await meterOf(options.meter, EXAMPLE);
  const attempts = meter.createCounter('berth.attempts', {
    description: 'Attempts ended, by job name and outcome',
    unit: '{attempt}',
  });
  const duration = meter.createHistogram('berth.attempt.duration', {
    description: 'How long attempts ran, from the handler’s start to the settle',
    unit: 's',
  });
  const active = meter.createUpDownCounter('berth.worker.active', {
    description: 'Handlers running now',
    unit: '{attempt}',
  });
  const stalled = meter.createCounter('berth.jobs.stalled', {
    description: 'Jobs this worker took again after another claim’s lease lapsed',
    unit: '{job}',
  });
  // Started attempts by job id and claim: an attempt ends once, under the claim it began with.
  const started = new Map<string, number>();
  const keyOf = (job: ClaimedJob | JobRecord) => `${job.id}:${job.claim}`;
  const ended = (job: ClaimedJob | JobRecord, outcome: Outcome) => {
    const attributes = { 'berth.job.name': job.name, 'berth.job.outcome': outcome };
    attempts.add(1, attributes);
    const at = started.get(keyOf(job));
    if (at === undefined) return;
    started.delete(keyOf(job));
    active.add(-1, { 'berth.job.name': job.name });
    duration.record((performance.now() - at) / 1_000, attributes);
  };
  const stops = [
    worker.on('active', ({ job }) => {
      started.set(keyOf(job), performance.now());
      active.add(1, { 'berth.job.name': job.name });
    }),
    worker.on('completed', ({ job }) => ended(job, 'completed')),
    worker.on('retrying', ({ job }) => ended(job, 'retrying')),
    worker.on('failed', ({ job }) => ended(job, 'failed')),
    worker.on('dead', ({ job }) => ended(job, 'dead')),
    worker.on('cancelled', ({ job }) => ended(job, 'cancelled')),
    worker.on('stalled', ({ job }) => stalled.add(1, { 'berth.job.name': job.name })),
  ];
  return {
    stop() {
      for (const stop of stops) stop();
      started.clear();
    },
  };
}

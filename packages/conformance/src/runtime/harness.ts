import { createWorker, type Driver, type Worker } from '@berth/core';
import type { ScenarioContext } from '../golden/transcript.js';
import { NUDGE_MS } from './drive.js';

const quiet = (): void => {};

/** What `createWorker` takes as its jobs: the definitions a scenario made with `defineJob`. */
type Jobs = Parameters<typeof createWorker>[0]['jobs'];

export interface ScenarioWorker {
  stop(): Promise<void>;
}

/** What a scenario may set on its worker; the rest keeps the harness defaults. */
export interface ScenarioWorkerOptions {
  readonly concurrency?: number;
  readonly visibilityTimeoutMs?: number;
  /** Default NUDGE_MS; a scenario that counts polls sets one no nudge reaches. */
  readonly pollIntervalMs?: number;
  readonly keyBusyDelayMs?: number;
  /** A scenario that never moves the clock sets 0: the default window waits on the clock. */
  readonly settleBatchMs?: number;
  /** Jobs claimed ahead of free slots (the worker's `prefetch`); default none. */
  readonly prefetch?: number;
  /** The driver the worker uses (a wrapper of the case's driver that counts or fails calls). */
  readonly driver?: Driver;
  /** Listens to the worker's events. */
  readonly on?: (worker: Worker) => void;
}

/**
 * Starts one worker for a scenario: concurrency 1 unless asked, a 30 s lease, and a poll on the
 * kit clock every NUDGE_MS, so the scenario's nudges drive it on a driver without a wake.
 */
export async function startWorker(
  driver: Driver,
  jobs: Jobs,
  options: ScenarioWorkerOptions = {},
): Promise<ScenarioWorker> {
  const worker = createWorker({
    driver: options.driver ?? driver,
    jobs,
    concurrency: options.concurrency ?? 1,
    visibilityTimeoutMs: options.visibilityTimeoutMs ?? 30_000,
    pollIntervalMs: options.pollIntervalMs ?? NUDGE_MS,
    ...(options.keyBusyDelayMs === undefined ? {} : { keyBusyDelayMs: options.keyBusyDelayMs }),
    ...(options.settleBatchMs === undefined ? {} : { settleBatchMs: options.settleBatchMs }),
    ...(options.prefetch === undefined ? {} : { prefetch: options.prefetch }),
    // A cancel scenario makes the worker warn by design; the transcript is what is checked.
    logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
  });
  options.on?.(worker);
  await worker.start();
  return { stop: () => worker.stop({ graceMs: 0 }) };
}

/** Runs `play` with a worker, and stops the worker whatever `play` did. */
export async function withWorker(
  context: Pick<ScenarioContext, 'driver'>,
  jobs: Jobs,
  play: () => Promise<void>,
  options: ScenarioWorkerOptions = {},
): Promise<void> {
  const worker = await startWorker(context.driver, jobs, options);
  try {
    await play();
  } finally {
    await worker.stop();
  }
}

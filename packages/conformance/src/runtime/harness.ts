import { createWorker, type Driver } from '@berth/core';
import type { ScenarioContext } from '../golden/transcript.js';
import { NUDGE_MS } from './drive.js';

const quiet = (): void => {};

/** What `createWorker` takes as its jobs: the definitions a scenario made with `defineJob`. */
type Jobs = Parameters<typeof createWorker>[0]['jobs'];

export interface ScenarioWorker {
  stop(): Promise<void>;
}

/**
 * Starts one worker for a scenario: concurrency 1 unless asked, a 30 s lease, and a poll on the
 * kit clock every NUDGE_MS, so the scenario's nudges drive it on a driver without a wake.
 */
export async function startWorker(
  driver: Driver,
  jobs: Jobs,
  options: { concurrency?: number; visibilityTimeoutMs?: number } = {},
): Promise<ScenarioWorker> {
  const worker = createWorker({
    driver,
    jobs,
    concurrency: options.concurrency ?? 1,
    visibilityTimeoutMs: options.visibilityTimeoutMs ?? 30_000,
    pollIntervalMs: NUDGE_MS,
    // A cancel scenario makes the worker warn by design; the transcript is what is checked.
    logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
  });
  await worker.start();
  return { stop: () => worker.stop({ graceMs: 0 }) };
}

/** Runs `play` with a worker, and stops the worker whatever `play` did. */
export async function withWorker(
  context: ScenarioContext,
  jobs: Jobs,
  play: () => Promise<void>,
  options: { concurrency?: number; visibilityTimeoutMs?: number } = {},
): Promise<void> {
  const worker = await startWorker(context.driver, jobs, options);
  try {
    await play();
  } finally {
    await worker.stop();
  }
}

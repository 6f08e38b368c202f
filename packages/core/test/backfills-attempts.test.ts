import { describe, expect, it } from 'vitest';
import { createClient, DEFAULT_MAX_ATTEMPTS, defineBackfill } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveUntil } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const workers = testWorkers({ visibilityTimeoutMs: 30_000, pollIntervalMs: 50, concurrency: 1 });
const backoff = { initialMs: 10, factor: 1, maxMs: 10, jitter: 0 };

describe("backfills: the runner job's attempts", () => {
  it("a run's runner job gets the backfill's retry.maxAttempts: a pass failing 4 times in a row does not fail a run allowed 6 attempts", async () => {
    const { driver, clock } = memoryOnManualClock();
    let failures = 0;
    const patient = defineBackfill({
      name: 'patient',
      batch: 10,
      retry: { maxAttempts: 6, backoff },
      pass: async () => {
        if (failures < 4) {
          failures += 1;
          throw new Error('the search index is restarting');
        }
        return { rows: 10, next: null };
      },
    });
    const client = createClient({ driver });
    const started = await client.backfills.start(patient);
    expect((await driver.get(started.jobId))?.maxAttempts).toBe(6);
    await workers.start(driver, [patient]);
    await driveUntil(clock, async () => {
      const state = (await driver.get(started.jobId))?.state;
      return state === 'completed' || state === 'dead';
    });
    expect(await client.backfills.get(started.runId)).toMatchObject({
      status: 'completed',
      rowsDone: 10,
    });
    expect(await driver.get(started.jobId)).toMatchObject({ state: 'completed', attempts: 5 });
  });

  it("a resumed run's new runner job keeps the attempts its run's runner job had", async () => {
    const { driver } = memoryOnManualClock();
    const walk = defineBackfill({
      name: 'walk',
      retry: { maxAttempts: 9, backoff },
      pass: async () => ({ rows: 0, next: null }),
    });
    const client = createClient({ driver });
    const started = await client.backfills.start(walk);
    await client.backfills.pause(started.runId);
    const resumed = await client.backfills.resume(started.runId);
    expect(resumed.jobId).not.toBe(started.jobId);
    expect((await driver.get(resumed.jobId))?.maxAttempts).toBe(9);
  });

  it('started by name, the runner job takes the maxAttempts option, else the default; a bad one is refused before the run is stored', async () => {
    const { driver } = memoryOnManualClock();
    const client = createClient({ driver });
    const named = await client.backfills.start('reindex', { maxAttempts: 12 });
    expect((await driver.get(named.jobId))?.maxAttempts).toBe(12);
    const plain = await client.backfills.start('other');
    expect((await driver.get(plain.jobId))?.maxAttempts).toBe(DEFAULT_MAX_ATTEMPTS);
    await expect(client.backfills.start('third', { maxAttempts: 0 })).rejects.toMatchObject({
      code: 'JOB_INVALID',
      meta: { field: 'maxAttempts' },
    });
    expect(await client.backfills.list({ name: 'third' })).toEqual([]);
  });
});

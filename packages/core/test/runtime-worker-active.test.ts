import { describe, expect, it } from 'vitest';
import type { Driver, ManualClock } from '../src/index.js';
import { createClient, defineJob } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, driveUntil, gate } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

/** Drives until job `id` was claimed at least once (and, its key busy, handed back). */
const driveUntilClaimed = (driver: Driver, clock: ManualClock, id: string) =>
  driveUntil(clock, async () => ((await driver.get(id))?.claim ?? 0) > 0, {
    what: `job ${id} is claimed`,
  });

const workers = testWorkers({ concurrency: 4, visibilityTimeoutMs: 30_000, pollIntervalMs: 1_000 });

describe('worker: the active event', () => {
  it('is emitted as each attempt’s handler starts, with its attempt number', async () => {
    const seen: string[] = [];
    const flaky = defineJob({
      name: 'flaky',
      retry: { maxAttempts: 3, backoff: { initialMs: 10, jitter: 0 } },
      run: ({ attempt }) => {
        seen.push(`run ${attempt}`);
        if (attempt === 1) throw new Error('first attempt fails');
      },
    });
    const { driver, clock } = memoryOnManualClock();
    const worker = workers.make(driver, [flaky]);
    worker.on('active', ({ job, attempt }) => seen.push(`active ${job.name} ${attempt}`));
    worker.on('retrying', () => seen.push('retrying'));
    worker.on('completed', () => seen.push('completed'));
    await worker.start();
    const { id } = await createClient({ driver }).enqueue(flaky, null);
    await driveToState(driver, clock, id, 'completed', { stepMs: 10 });
    // Each attempt is active before its handler runs; the retry's event may land after the
    // next attempt began (the nack answers in its batch), so only the handler order is fixed.
    expect(seen.filter((line) => !['retrying', 'completed'].includes(line))).toEqual([
      'active flaky 1',
      'run 1',
      'active flaky 2',
      'run 2',
    ]);
    expect(seen.at(-1)).toBe('completed');
    expect(seen.filter((line) => line === 'retrying')).toHaveLength(1);
  });

  it('a job whose key is busy is not active until it runs: handed back, it emits nothing', async () => {
    const release = gate();
    const active: string[] = [];
    const keyed = defineJob<{ key: string; n: number }>({
      name: 'keyed',
      concurrency: { limit: 1, key: (payload) => payload.key },
      run: async ({ payload }) => {
        if (payload.n === 1) await release.promise;
      },
    });
    const { driver, clock } = memoryOnManualClock();
    const worker = workers.make(driver, [keyed], { keyBusyDelayMs: 50 });
    worker.on('active', ({ job }) => active.push((job.payload as { n: number }).n.toString()));
    await worker.start();
    const client = createClient({ driver });
    const first = await client.enqueue(keyed, { key: 'k', n: 1 });
    await driveToState(driver, clock, first.id, 'running');
    const second = await client.enqueue(keyed, { key: 'k', n: 2 });
    // The second is claimed and handed back while the first holds the key.
    await driveUntilClaimed(driver, clock, second.id);
    await clock.advance(200);
    expect(active).toEqual(['1']);
    release.open();
    await driveToState(driver, clock, second.id, 'completed', { stepMs: 20 });
    expect(active).toEqual(['1', '2']);
  });
});

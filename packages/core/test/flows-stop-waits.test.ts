import { describe, expect, it } from 'vitest';
import { createClient, createWorker, defineJob } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, gate, recordingLogger } from './support/runtime.js';
import { wrapDriver } from './support/wrap.js';

/** The memory driver whose event publishes take a while (a remote server's round trip). */
function slowPublishes() {
  const { driver, clock } = memoryOnManualClock();
  const slow = wrapDriver(driver, {
    events: {
      publish: async (...args) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return driver.events.publish(...args);
      },
    },
  });
  return { driver: slow, clock, inner: driver };
}

describe("a stopping worker waits for its children's wake-ups", () => {
  it('stop() returns only once the announcement of a child it just settled is stored', async () => {
    const { driver, clock, inner } = slowPublishes();
    const release = gate();
    const child = defineJob<Record<string, never>>()({
      name: 'child',
      run: async () => {
        await release.promise;
        return 'done';
      },
    });
    const parent = defineJob<Record<string, never>>()({
      name: 'parent',
      run: async ({ step }) => step.invoke('child', child, {}),
    });
    const quiet = recordingLogger().logger;
    const options = {
      concurrency: 2,
      visibilityTimeoutMs: 30_000,
      pollIntervalMs: 20,
      settleBatchMs: 0,
    };
    const parents = createWorker({ ...options, driver, jobs: [parent], logger: quiet });
    const children = createWorker({ ...options, driver, jobs: [child], logger: quiet });
    await Promise.all([parents.start(), children.start()]);
    const { id } = await createClient({ driver }).enqueue(parent, {});
    await driveToState(inner, clock, id, 'suspended');
    await parents.stop({ graceMs: 0 });
    const [running] = (await inner.list({ name: 'child', state: 'running' })).jobs;
    release.open();
    await driveToState(inner, clock, String(running?.id), 'completed');
    await children.stop({ graceMs: 5_000 });
    const announced = await inner.events.list(`berth.flow:${id}`);
    expect(announced.map((event) => event.payload)).toEqual([
      { kind: 'settled', child: running?.id, state: 'completed' },
    ]);
  });
});

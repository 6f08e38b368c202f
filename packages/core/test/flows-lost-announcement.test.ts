import { describe, expect, it } from 'vitest';
import { createClient, defineJob } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, gate, recordingLogger } from './support/runtime.js';
import { testWorkers } from './support/workers.js';
import { wrapDriver } from './support/wrap.js';

const workers = testWorkers({
  visibilityTimeoutMs: 30_000,
  concurrency: 2,
  pollIntervalMs: 20,
  settleBatchMs: 0,
});

/** The memory driver whose flow announcements never land (a crash right after the settle). */
function silentParents() {
  const { driver, clock } = memoryOnManualClock();
  const dropping = wrapDriver(driver, {
    events: {
      publish: (...args) =>
        args[0].startsWith('berth.flow:') && (args[1] as { kind?: string })?.kind === 'settled'
          ? Promise.reject(new Error('the connection dropped'))
          : driver.events.publish(...args),
    },
  });
  return { driver: dropping, clock };
}

describe('a parent whose announcements were lost still goes on', () => {
  it('reads its settled child at its next poll (eventPollMs), and the child worker warns it could not wake it', async () => {
    const { driver, clock } = silentParents();
    const { logger, lines } = recordingLogger();
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
    await workers.start(driver, [parent, child], { eventPollMs: 60_000, logger });
    const { id } = await createClient({ driver }).enqueue(parent, {});
    await driveToState(driver, clock, id, 'suspended');
    const parkedAt = clock.now();
    release.open();
    const done = await driveToState(driver, clock, id, 'completed', { stepMs: 1_000 });
    expect(done.result).toBe('done');
    expect(clock.now() - parkedAt).toBeGreaterThanOrEqual(60_000);
    expect(lines.some((line) => line.message.includes('could not wake the parent job'))).toBe(true);
  });
});

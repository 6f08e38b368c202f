import { describe, it } from 'vitest';
import { z } from 'zod';
import { createClient, defineJob } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const { start: startWorker } = testWorkers({
  workerId: 'slot-release',
  concurrency: 2,
  visibilityTimeoutMs: 30_000,
  pollIntervalMs: 50,
  keyBusyDelayMs: 100,
});

describe('worker: fleet slots are released whatever admission meets', () => {
  it('frees the concurrency slot when the rate-limit key throws, so the next job is not blocked until the ttl', async () => {
    const { driver, clock } = memoryOnManualClock();
    const job = defineJob({
      name: 'keyed',
      schema: z.object({ bad: z.boolean() }),
      concurrency: { limit: 1 },
      rateLimit: {
        limit: 10,
        intervalMs: 1_000,
        key: (payload) => {
          if (payload.bad) throw new Error('no rate key for this payload');
          return 'k';
        },
      },
      retry: { maxAttempts: 1 },
      run: () => 'ran',
    });
    await startWorker(driver, [job]);
    const client = createClient({ driver });
    const bad = await client.enqueue(job, { bad: true });
    await driveToState(driver, clock, bad.id, 'dead', { stepMs: 5 });
    const good = await client.enqueue(job, { bad: false });
    // Far less than the 30 s slot ttl: a leaked slot would keep the job bouncing until then.
    await driveToState(driver, clock, good.id, 'completed', { stepMs: 50, maxMs: 2_000 });
  });
});

import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type Client,
  createClient,
  createWorker,
  declareJob,
  implementJob,
  type JobContract,
  type JobResultOf,
  type Worker,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState } from './support/runtime.js';

// contracts.ts: what both tiers import. No handler, no handler imports.
const resize = declareJob<{ url: string; width: number }, { thumbnail: string }>({
  name: 'image.resize',
  queue: 'images',
  retry: { maxAttempts: 4 },
});
// With a schema whose input differs from its output: output, result, input.
const tagged = declareJob<{ tag: string }, { ok: boolean }, { tag?: string | undefined }>({
  name: 'tagged',
  schema: z.object({ tag: z.string().default('none') }),
});
const welcome = declareJob({ name: 'welcome', schema: z.object({ userId: z.string() }) });

// Compiled by `pnpm typecheck`, never run.
async function compileOnly(client: Client) {
  // The web tier: typed enqueues and results from the contract alone.
  await client.enqueue(resize, { url: 'u', width: 64 });
  // @ts-expect-error width must be a number
  await client.enqueue(resize, { url: 'u', width: '64' });
  expectTypeOf(await client.enqueueAndWait(resize, { url: 'u', width: 1 })).toEqualTypeOf<{
    thumbnail: string;
  }>();
  expectTypeOf(resize).toEqualTypeOf<
    JobContract<
      { url: string; width: number },
      { url: string; width: number },
      { thumbnail: string }
    >
  >();
  implementJob(resize, {
    // @ts-expect-error the contract says the result is { thumbnail: string }
    run: () => ({ thumb: 'x' }),
  });
  implementJob(welcome, {
    run: ({ payload }) => {
      expectTypeOf(payload).toEqualTypeOf<{ userId: string }>();
    },
  });
  // @ts-expect-error a contract's result type must be JSON
  declareJob<{ a: string }, { at: Date }>({ name: 'dated' });
  await client.enqueue(tagged, {});
  expectTypeOf(await client.enqueueAndWait(tagged, { tag: 'x' })).toEqualTypeOf<{ ok: boolean }>();
}

const workers: Worker<unknown>[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop({ graceMs: 0 })));
});

describe('job contracts', () => {
  it('a producer enqueues by contract; the worker runs the implementation of it', async () => {
    const { driver, clock } = memoryOnManualClock();
    // worker.ts: the only place the handler lives.
    const resizeJob = implementJob(resize, {
      run: ({ payload }) => ({ thumbnail: `${payload.url}?w=${payload.width}` }),
    });
    expectTypeOf<JobResultOf<typeof resizeJob>>().toEqualTypeOf<{ thumbnail: string }>();
    const worker = createWorker({
      driver,
      jobs: [resizeJob],
      concurrency: 1,
      visibilityTimeoutMs: 30_000,
    });
    workers.push(worker);
    await worker.start();
    // The client is given contracts only.
    const client = createClient({ driver, jobs: [resize] });
    const { id } = await client.enqueue(resize, { url: 'https://x/a.png', width: 64 });
    const record = await driveToState(driver, clock, id, 'completed');
    expect(record).toMatchObject({
      name: 'image.resize',
      queue: 'images',
      maxAttempts: 4,
      result: { thumbnail: 'https://x/a.png?w=64' },
    });
    expect(resizeJob).toMatchObject({ name: 'image.resize', queue: 'images' });
    expect(compileOnly).toBeTypeOf('function');
  });

  it('implementJob refuses a missing run with CONFIG_INVALID', () => {
    expect(() =>
      implementJob(welcome, { run: undefined as unknown as () => undefined }),
    ).toThrowError(/CONFIG_INVALID/);
  });
});

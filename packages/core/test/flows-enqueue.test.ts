import { describe, expect, it } from 'vitest';
import {
  type ChildOutcome,
  createClient,
  defineJob,
  isBerthError,
  NonRetryableError,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, settleTicks } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const workers = testWorkers({
  visibilityTimeoutMs: 30_000,
  concurrency: 4,
  pollIntervalMs: 20,
  settleBatchMs: 0,
});

const render = defineJob<{ page: number }>()({
  name: 'render',
  queue: 'pages',
  run: ({ payload }) => ({ url: `/p/${payload.page}.png` }),
});
const refuse = defineJob<{ why: string }>()({
  name: 'refuse',
  run: ({ payload }) => {
    throw new NonRetryableError(payload.why);
  },
});

describe('client.enqueueFlow enqueues a parent with its children; the parent reads how they settled', () => {
  it('the parent reads every child result in the flow order, typed by step.children(job)', async () => {
    const { driver, clock } = memoryOnManualClock();
    let read: readonly ChildOutcome<{ url: string }>[] = [];
    const book = defineJob<{ title: string }>()({
      name: 'book',
      run: async ({ payload, step }) => {
        read = await step.children(render);
        return `${payload.title}: ${read.map((child) => (child.state === 'completed' ? child.result.url : '-')).join(' ')}`;
      },
    });
    await workers.start(driver, [book, render], { queues: ['default', 'pages'] });
    const flow = await createClient({ driver }).enqueueFlow({
      job: book,
      payload: { title: 'Atlas' },
      children: [1, 2, 3].map((page) => ({ job: render, payload: { page } })),
    });
    const done = await driveToState(driver, clock, flow.parent.id, 'completed');
    expect(done.result).toBe('Atlas: /p/1.png /p/2.png /p/3.png');
    expect(read.map((child) => child.id)).toEqual(flow.children.map((child) => child.id));
    for (const child of flow.children) {
      expect(await driver.get(child.id)).toMatchObject({
        parentId: flow.parent.id,
        queue: 'pages',
      });
    }
  });

  it('a failing child with onFailure fail fails the parent at once; ignore leaves it out; continue keeps it', async () => {
    const { driver, clock } = memoryOnManualClock();
    const seen: Record<string, readonly ChildOutcome[]> = {};
    const gather = defineJob<{ label: string }>()({
      name: 'gather',
      run: async ({ payload, step }) => {
        seen[payload.label] = await step.children();
        return seen[payload.label]?.length;
      },
    });
    await workers.start(driver, [gather, render, refuse], { queues: ['default', 'pages'] });
    const client = createClient({ driver });
    const flows = await Promise.all(
      (['fail', 'ignore', 'continue'] as const).map((onFailure) =>
        client.enqueueFlow({
          job: gather,
          payload: { label: onFailure },
          children: [
            { job: render, payload: { page: 1 } },
            { job: refuse, payload: { why: 'broken' }, onFailure },
          ],
        }),
      ),
    );
    const [failed, ignored, continued] = flows.map((flow) => flow.parent.id);
    const dead = await driveToState(driver, clock, String(failed), 'dead');
    expect(dead.lastError).toMatchObject({ code: 'JOB_FAILED' });
    expect(dead.lastError?.message).toContain('broken');
    expect((await driveToState(driver, clock, String(ignored), 'completed')).result).toBe(1);
    expect((await driveToState(driver, clock, String(continued), 'completed')).result).toBe(2);
    expect(seen.continue?.map((child) => child.state)).toEqual(['completed', 'dead']);
    expect(seen.continue?.[1]).toMatchObject({ name: 'refuse', error: { message: 'broken' } });
  });

  it('is all or nothing: a child refused by its schema leaves no job and no parent', async () => {
    const { driver } = memoryOnManualClock();
    const book = defineJob<{ title: string }>()({ name: 'book', run: () => 'never' });
    const error = await createClient({ driver })
      .enqueueFlow({
        job: book,
        payload: { title: 'x' },
        children: [
          { job: render, payload: { page: 1 } },
          { job: render, payload: { page: 2 }, options: { id: crypto.randomUUID() } } as never,
        ],
      })
      .catch((caught: unknown) => caught);
    expect(isBerthError(error, 'JOB_INVALID') && error.meta).toMatchObject({
      field: 'flow.children[1].options.id',
    });
    expect((await driver.list({})).jobs).toEqual([]);
  });

  it('a retried enqueueFlow with the parent id answers the same jobs, deduped', async () => {
    const { driver } = memoryOnManualClock();
    const book = defineJob<{ title: string }>()({ name: 'book', run: () => 'done' });
    const client = createClient({ driver });
    const id = crypto.randomUUID();
    const flow = {
      job: book,
      payload: { title: 'x' },
      options: { id },
      children: [{ job: render, payload: { page: 1 } }],
    };
    const first = await client.enqueueFlow(flow);
    const again = await client.enqueueFlow(flow);
    expect(again).toEqual(first);
    expect(first.parent.id).toBe(id);
    expect((await driver.list({})).jobs).toHaveLength(2);
  });

  it('step.children() in a job that no flow enqueued is STEP_INVALID', async () => {
    const { driver, clock } = memoryOnManualClock();
    let caught: unknown;
    const lone = defineJob<Record<string, never>>()({
      name: 'lone',
      run: async ({ step }) => {
        caught = await step.children().catch((error: unknown) => error);
        return 'ok';
      },
    });
    await workers.start(driver, [lone]);
    const { id } = await createClient({ driver }).enqueue(lone, {});
    await driveToState(driver, clock, id, 'completed');
    expect(isBerthError(caught, 'STEP_INVALID')).toBe(true);
  });

  it('refuses an empty flow and an unknown failure policy', async () => {
    const { driver } = memoryOnManualClock();
    const book = defineJob<{ title: string }>()({ name: 'book', run: () => 'done' });
    const client = createClient({ driver });
    const refusals = await Promise.all([
      client
        .enqueueFlow({ job: book, payload: { title: 'x' }, children: [] })
        .catch((e: unknown) => e),
      client
        .enqueueFlow({
          job: book,
          payload: { title: 'x' },
          children: [{ job: render, payload: { page: 1 }, onFailure: 'shrug' as never }],
        })
        .catch((e: unknown) => e),
    ]);
    expect(refusals.map((error) => isBerthError(error, 'JOB_INVALID') && error.meta.field)).toEqual(
      ['flow.children', 'flow.children[0].onFailure'],
    );
    await settleTicks();
    expect((await driver.list({})).jobs).toEqual([]);
  });
});

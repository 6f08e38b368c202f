import { createMemoryDriver } from '@berth/driver-memory';
import { describe, expect, it } from 'vitest';
import {
  createClient,
  createManualClock,
  type Driver,
  defineJob,
  isBerthError,
  NonRetryableError,
} from '../src/index.js';
import { gate, settleTicks } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

// settleBatchMs 0: the ack goes out a tick after the handler, with the clock standing still.
const workers = testWorkers({
  visibilityTimeoutMs: 30_000,
  concurrency: 2,
  pollIntervalMs: 20,
  settleBatchMs: 0,
});

/**
 * Two driver objects over one memory store, as two processes over one server: the worker's and
 * the waiting client's. The client's counts its `get` and `watchSettles` calls; `notices: false`
 * gives it no `watchSettles`, as a driver without notices.
 */
function twoProcesses(options: { notices?: boolean; failWatch?: boolean } = {}) {
  const clock = createManualClock(Date.UTC(2026, 0, 1));
  const workerSide = createMemoryDriver({ clock });
  const clientSide = createMemoryDriver({ clock, sameStoreAs: workerSide });
  const counted = { gets: 0, watches: 0 };
  const watchSettles: Driver['watchSettles'] = options.failWatch
    ? () => Promise.reject(new Error('no notices today'))
    : (onSettled) => {
        counted.watches += 1;
        return clientSide.watchSettles?.(onSettled) ?? Promise.reject(new Error('none'));
      };
  const waiting: Driver = Object.create(clientSide, {
    get: {
      value: (...args: Parameters<Driver['get']>) => {
        counted.gets += 1;
        return clientSide.get(...args);
      },
    },
    watchSettles: { value: options.notices === false ? undefined : watchSettles },
  });
  return { workerSide, waiting, clock, counted };
}

const doubler = (release: Promise<void>) =>
  defineJob<{ n: number }>()({
    name: 'double',
    run: async ({ payload }) => {
      await release;
      return payload.n * 2;
    },
  });

describe('a result wait hears a settle made by another process', () => {
  it('result() answers when a worker on another driver object acks, with the clock standing still and one look after the settle', async () => {
    const { workerSide, waiting, counted } = twoProcesses();
    const release = gate();
    const job = doubler(release.promise);
    await workers.start(workerSide, [job]);
    const client = createClient({ driver: waiting });
    const { id } = await client.enqueue(job, { n: 21 });
    let answered: number | undefined;
    void client
      .handle(job, id)
      .result()
      .then((value) => {
        answered = value;
      });
    await settleTicks(20);
    expect(answered).toBeUndefined();
    const looksBefore = counted.gets;
    release.open();
    await settleTicks(40);
    expect(answered).toBe(42);
    expect(counted.gets - looksBefore).toBe(1);
  });

  it('enqueueAndWait throws JOB_FAILED as another process dead-letters the job', async () => {
    const { workerSide, waiting } = twoProcesses();
    const release = gate();
    const refuse = defineJob<{ n: number }>()({
      name: 'refuse',
      run: async () => {
        await release.promise;
        throw new NonRetryableError('refused');
      },
    });
    await workers.start(workerSide, [refuse]);
    const client = createClient({ driver: waiting });
    const outcome = client.enqueueAndWait(refuse, { n: 1 }).catch((error: unknown) => error);
    await settleTicks(20);
    release.open();
    await settleTicks(40);
    const thrown = await Promise.race([outcome, settleTicks(1).then(() => 'still waiting')]);
    expect(isBerthError(thrown, 'JOB_FAILED')).toBe(true);
  });

  it('waits one after another share one settle watch', async () => {
    const { workerSide, waiting, counted } = twoProcesses();
    const job = doubler(Promise.resolve());
    await workers.start(workerSide, [job]);
    const client = createClient({ driver: waiting });
    for (const n of [1, 2, 3]) {
      const answer = client.enqueueAndWait(job, { n });
      await settleTicks(40);
      expect(await Promise.race([answer, settleTicks(1).then(() => 'still waiting')])).toBe(n * 2);
    }
    expect(counted.watches).toBe(1);
  });

  it.each([
    ['has no watchSettles', { notices: false }],
    ['cannot watch', { failWatch: true }],
  ])('a wait on a driver that %s finds the settle by polling', async (_what, options) => {
    const { workerSide, waiting, clock } = twoProcesses(options);
    const release = gate();
    const job = doubler(release.promise);
    await workers.start(workerSide, [job]);
    const client = createClient({ driver: waiting });
    const answer = client.enqueueAndWait(job, { n: 4 });
    await settleTicks(20);
    release.open();
    await settleTicks(40);
    expect(await Promise.race([answer, settleTicks(1).then(() => 'still waiting')])).toBe(
      'still waiting',
    );
    // Its next look, 25 ms on: the first poll gap.
    await clock.advance(25);
    await settleTicks(20);
    expect(await Promise.race([answer, settleTicks(1).then(() => 'still waiting')])).toBe(8);
  });
});

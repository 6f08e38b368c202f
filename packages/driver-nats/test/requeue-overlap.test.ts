import { type Fence, isBerthError } from '@berth/core';
import type { KV } from '@nats-io/kv';
import { describe, expect, it } from 'vitest';
import type { NatsContext } from '../src/context.js';
import { requeue } from '../src/requeue.js';
import { natsDriver, openTestContext } from './nats-factory.js';

/** The jobs bucket, running `meanwhile` just before a batch decision key is created. */
function beforeDecision(jobs: KV, meanwhile: () => Promise<void>): KV {
  return new Proxy(jobs, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== 'create') return value.bind(target);
      return async (key: string, ...rest: unknown[]) => {
        if (key.startsWith('b.')) await meanwhile();
        return value.apply(target, [key, ...rest]);
      };
    },
  });
}

/**
 * A keyed requeue lands through a batch of its own: the record is written with the requeue
 * pending, then the key's holder, then the decision. A plain read meeting the pending record in
 * between (a stale worker's ack, a cancel) has no right to decide that batch, so it must not
 * abort it: the requeue lands, as on every other driver.
 */
describe('a keyed requeue overlapped by plain reads', () => {
  it('lands although a stale ack and a cancel read the record while its batch was in flight', async () => {
    const { driver, url, prefix, dispose } = await natsDriver();
    const context = await openTestContext(url, prefix);
    try {
      const { id } = await driver.enqueue({ name: 'mail', queue: 'overlap', idempotencyKey: 'k' });
      const [job] = await driver.claim({
        queues: ['overlap'],
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
      });
      if (job === undefined) throw new Error('nothing claimed');
      const stale: Fence = { jobId: id, workerId: 'w', claim: job.claim };
      expect(await driver.nack(stale, { error: { message: 'no' }, final: true })).toBe(true);
      const answers: unknown[] = [];
      const overlapped: NatsContext = Object.create(context, {
        jobs: {
          value: beforeDecision(context.jobs, async () => {
            answers.push(await driver.ack(stale, {}));
            answers.push(
              await driver.cancel(id).then(
                (record) => record.state,
                (error: unknown) => (isBerthError(error) ? error.code : error),
              ),
            );
          }),
        },
      });
      const requeued = await requeue(overlapped, id, {});
      expect(answers).toEqual([false, 'JOB_NOT_CANCELLABLE']);
      expect(requeued).toMatchObject({ id, state: 'ready', attempts: 0 });
      expect(await driver.get(id)).toMatchObject({ state: 'ready', attempts: 0 });
    } finally {
      context.stopStatus();
      context.mirror.stop();
      context.wake.close();
      await context.nc.close();
      await dispose();
    }
  });
});

import type { ListPage } from '@berth/core';
import { fenceOf, type GoldenScenario, only } from './transcript.js';

const SYNC = { name: 'sync', idempotencyKey: 'k' } as const;
/** A caller-allocated id (an outbox row). */
const CALLER_ID = '5e1f0000-0000-4000-8000-0000000000a1';

const idsAndStates = (page: ListPage) => page.jobs.map((job) => ({ id: job.id, state: job.state }));

export const enqueueRetryOneMiss: GoldenScenario = {
  name: 'enqueue-retry-one-miss',
  asserts:
    'an enqueue whose key holder settles between the insert and the lookup lands on its retry',
  async play({ driver, hooks, answer, note, advance }) {
    const holder = await answer('enqueue sync key k', () =>
      driver.enqueue({ ...SYNC, payload: { n: 1 } }),
    );
    await advance(1_000);
    let calls = 0;
    hooks.afterEnqueueConflict = async () => {
      calls += 1;
      if (calls === 1) {
        await answer('afterEnqueueConflict 1: cancel job1', () => driver.cancel(holder.id));
      }
    };
    const landed = await answer('enqueue sync key k (job1 settles in the seam)', () =>
      driver.enqueue({ ...SYNC, payload: { n: 2 } }),
    );
    await answer("enqueue with job2's id and key k (an id collision, not a key conflict)", () =>
      driver.enqueue({ ...SYNC, id: landed.id, payload: { n: 3 } }),
    );
    note('afterEnqueueConflict calls', calls);
    await answer('get job2', () => driver.get(landed.id));
  },
};

export const enqueueRetryTwoMisses: GoldenScenario = {
  name: 'enqueue-retry-two-misses',
  asserts:
    'an enqueue that misses the key holder twice answers DRIVER_UNAVAILABLE and lands nothing',
  async play({ driver, hooks, answer, refusal, note, advance }) {
    const holder = await answer('enqueue sync key k', () =>
      driver.enqueue({ ...SYNC, payload: { n: 1 } }),
    );
    await advance(1_000);
    let calls = 0;
    let next: string | undefined;
    hooks.afterEnqueueConflict = async () => {
      calls += 1;
      if (calls === 1) {
        await answer('afterEnqueueConflict 1: cancel job1', () => driver.cancel(holder.id));
        const made = await answer('afterEnqueueConflict 1: enqueue a new holder of k', () =>
          driver.enqueue({ ...SYNC, payload: { n: 3 } }),
        );
        next = made.id;
      } else if (calls === 2 && next !== undefined) {
        const id = next;
        await answer('afterEnqueueConflict 2: cancel job2', () => driver.cancel(id));
      }
    };
    await refusal('enqueue sync key k (both holders settle in the seam)', () =>
      driver.enqueue({ ...SYNC, payload: { n: 2 } }),
    );
    note('afterEnqueueConflict calls', calls);
    await answer('list sync jobs', () => driver.list({ name: 'sync' }), idsAndStates);
  },
};

export const dedupe: GoldenScenario = {
  name: 'dedupe',
  asserts:
    'a key held by a live job answers that job deduped, per (name, tenant); a settled holder frees it',
  async play({ driver, answer, advance }) {
    const holder = await answer('enqueue mail key k', () =>
      driver.enqueue({ name: 'mail', idempotencyKey: 'k', payload: { n: 1 } }),
    );
    await answer('enqueue mail key k again', () =>
      driver.enqueue({ name: 'mail', idempotencyKey: 'k', payload: { n: 2 } }),
    );
    await answer('enqueue mail key k, tenant acme', () =>
      driver.enqueue({ name: 'mail', idempotencyKey: 'k', tenantId: 'acme', payload: { n: 3 } }),
    );
    await answer('enqueue sms key k', () =>
      driver.enqueue({ name: 'sms', idempotencyKey: 'k', payload: { n: 4 } }),
    );
    await answer('enqueueMany [mail k, batch b, batch b]', () =>
      driver.enqueueMany([
        { name: 'mail', idempotencyKey: 'k', payload: { n: 5 } },
        { name: 'batch', idempotencyKey: 'b', payload: { n: 6 } },
        { name: 'batch', idempotencyKey: 'b', payload: { n: 7 } },
      ]),
    );
    await advance(1_000);
    const claimed = only(
      await answer('claim as w1', () =>
        driver.claim({ queues: ['default'], workerId: 'w1', visibilityTimeoutMs: 30_000 }),
      ),
    );
    await answer('ack job1', () => driver.ack(fenceOf(claimed), { result: { sent: true } }));
    await answer('enqueue mail key k (job1 settled: the key is free)', () =>
      driver.enqueue({ name: 'mail', idempotencyKey: 'k', payload: { n: 8 } }),
    );
    await answer('get job1', () => driver.get(holder.id));
    const outbox = await answer('enqueue with a caller id', () =>
      driver.enqueue({ id: CALLER_ID, name: 'mail', payload: { n: 9 } }),
    );
    await answer('cancel job6', () => driver.cancel(outbox.id));
    await answer('enqueue with the same caller id (job6 is cancelled)', () =>
      driver.enqueue({ id: CALLER_ID, name: 'other', payload: { n: 10 } }),
    );
  },
};

export const onConflictError: GoldenScenario = {
  name: 'on-conflict-error',
  asserts:
    'onConflict "error" answers JOB_DUPLICATE naming the holder; a refused batch lands nothing',
  async play({ driver, answer, refusal }) {
    await answer('enqueue mail key k', () =>
      driver.enqueue({ name: 'mail', idempotencyKey: 'k', payload: { n: 1 } }),
    );
    await refusal('enqueue mail key k, onConflict error', () =>
      driver.enqueue({ name: 'mail', idempotencyKey: 'k', onConflict: 'error', payload: { n: 2 } }),
    );
    await answer('enqueue mail key k, tenant acme', () =>
      driver.enqueue({ name: 'mail', idempotencyKey: 'k', tenantId: 'acme', payload: { n: 3 } }),
    );
    await refusal('enqueue mail key k, tenant acme, onConflict error', () =>
      driver.enqueue({
        name: 'mail',
        idempotencyKey: 'k',
        tenantId: 'acme',
        onConflict: 'error',
        payload: { n: 4 },
      }),
    );
    await refusal('enqueueMany [mail key fresh, mail key k onConflict error]', () =>
      driver.enqueueMany([
        { name: 'mail', idempotencyKey: 'fresh', payload: { n: 5 } },
        { name: 'mail', idempotencyKey: 'k', onConflict: 'error', payload: { n: 6 } },
      ]),
    );
    await answer('list mail jobs', () => driver.list({ name: 'mail' }), idsAndStates);
    await answer('enqueue mail key fresh (the refused batch took nothing)', () =>
      driver.enqueue({ name: 'mail', idempotencyKey: 'fresh', payload: { n: 7 } }),
    );
  },
};

import type { StepRecord } from '@berth/core';
import { fenceOf, type GoldenScenario, NOBODY_QUEUED, only } from './transcript.js';

const LEASE = { queues: ['default'], visibilityTimeoutMs: 30_000 } as const;
const BOOM = { error: { message: 'boom' }, final: true } as const;

export const requeueNotFound: GoldenScenario = {
  name: 'requeue-not-found',
  asserts: 'requeue of an id nobody queued answers JOB_NOT_FOUND, before any other check',
  async play({ driver, refusal }) {
    await refusal('requeue an id nobody queued', () => driver.requeue(NOBODY_QUEUED));
    await refusal('requeue an id nobody queued, fromStep "a"', () =>
      driver.requeue(NOBODY_QUEUED, { fromStep: 'a' }),
    );
    await refusal('requeue an id nobody queued, tenant "acme"', () =>
      driver.requeue(NOBODY_QUEUED, { tenantId: 'acme' }),
    );
  },
};

export const requeueWrongState: GoldenScenario = {
  name: 'requeue-wrong-state',
  asserts:
    'requeue of a live or completed job answers JOB_NOT_REQUEUEABLE with its effective state',
  async play({ driver, t0, answer, refusal, advance }) {
    const first = await answer('enqueue mail', () =>
      driver.enqueue({ name: 'mail', payload: { n: 1 } }),
    );
    const second = await answer('enqueue mail due in 60s', () =>
      driver.enqueue({ name: 'mail', payload: { n: 2 }, runAt: t0 + 60_000 }),
    );
    await refusal('requeue job1 (ready)', () => driver.requeue(first.id));
    await refusal('requeue job2 (delayed)', () => driver.requeue(second.id));
    const claimed = only(
      await answer('claim as w1', () => driver.claim({ ...LEASE, workerId: 'w1' })),
    );
    await refusal('requeue job1 (running)', () => driver.requeue(first.id));
    await advance(1_000);
    await answer('ack job1', () => driver.ack(fenceOf(claimed)));
    await refusal('requeue job1 (completed)', () => driver.requeue(first.id));
    await advance(60_000);
    await refusal('requeue job2 (delayed, now due: reads ready)', () => driver.requeue(second.id));
    await answer('get job1', () => driver.get(first.id));
    await answer('get job2', () => driver.get(second.id));
  },
};

export const requeueKeyTaken: GoldenScenario = {
  name: 'requeue-key-taken',
  asserts: 'requeue of a job whose key a live job holds answers JOB_DUPLICATE and changes nothing',
  async play({ driver, answer, refusal, advance }) {
    const first = await answer('enqueue mail key k1', () =>
      driver.enqueue({ name: 'mail', payload: { n: 1 }, idempotencyKey: 'k1' }),
    );
    const claimed = only(
      await answer('claim as w1', () => driver.claim({ ...LEASE, workerId: 'w1' })),
    );
    await advance(1_000);
    await answer('nack job1 final', () => driver.nack(fenceOf(claimed), BOOM));
    const holder = await answer('enqueue mail key k1 (the key is free again)', () =>
      driver.enqueue({ name: 'mail', payload: { n: 2 }, idempotencyKey: 'k1' }),
    );
    await refusal('requeue job1 (job2 holds k1)', () => driver.requeue(first.id));
    await answer('get job1', () => driver.get(first.id));
    await advance(1_000);
    await answer('cancel job2', () => driver.cancel(holder.id));
    await answer('requeue job1', () => driver.requeue(first.id));
  },
};

export const requeueRaceLost: GoldenScenario = {
  name: 'requeue-race-lost',
  asserts:
    'a requeue that loses its race answers JOB_NOT_REQUEUEABLE "live"; one that comes second sees "ready"',
  async play({ driver, hooks, answer, refusal, note, advance }) {
    const job = await answer('enqueue mail', () =>
      driver.enqueue({ name: 'mail', payload: { n: 1 } }),
    );
    await advance(1_000);
    await answer('cancel job1', () => driver.cancel(job.id));
    await advance(1_000);
    let calls = 0;
    hooks.afterRequeueCheck = async () => {
      calls += 1;
      if (calls === 1) {
        await answer('afterRequeueCheck: requeue job1', () => driver.requeue(job.id));
      }
    };
    await refusal('requeue job1 (loses the race)', () => driver.requeue(job.id));
    await refusal('requeue job1 again (comes second)', () => driver.requeue(job.id));
    note('afterRequeueCheck calls', calls);
    await answer('get job1', () => driver.get(job.id));
  },
};

export const requeuePurgeRace: GoldenScenario = {
  name: 'requeue-purge-race',
  asserts:
    'a requeue whose row a purge removed after its checks answers JOB_NOT_FOUND and brings nothing back',
  async play({ driver, hooks, answer, refusal, note, advance }) {
    const job = await answer('enqueue mail', () =>
      driver.enqueue({ name: 'mail', payload: { n: 1 } }),
    );
    await advance(1_000);
    await answer('cancel job1', () => driver.cancel(job.id));
    await advance(1_000);
    let calls = 0;
    hooks.afterRequeueCheck = async () => {
      calls += 1;
      await answer('afterRequeueCheck: purge job1', () =>
        driver.purge({ states: ['cancelled'], olderThan: driver.clock.now(), ids: [job.id] }),
      );
    };
    await refusal('requeue job1 (purged under it)', () => driver.requeue(job.id));
    note('afterRequeueCheck calls', calls);
    await answer('get job1', () => driver.get(job.id));
    await answer('list', () => driver.list());
  },
};

const step = (runId: string, name: string, at: number): StepRecord => ({
  runId,
  name,
  status: 'completed',
  output: { step: name },
  attempts: 1,
  startedAt: at,
  updatedAt: at,
});

export const requeueFromStep: GoldenScenario = {
  name: 'requeue-from-step',
  asserts:
    'requeue fromStep drops that step and every later one, keeps the earlier ones, and keeps the run',
  async play({ driver, clock, answer, refusal, advance }) {
    const job = await answer('enqueue etl', () =>
      driver.enqueue({ name: 'etl', payload: { n: 1 } }),
    );
    const claimed = only(
      await answer('claim as w1', () => driver.claim({ ...LEASE, workerId: 'w1' })),
    );
    const fence = fenceOf(claimed);
    await answer('put step a', () => driver.steps.put(step(job.runId, 'a', clock.now()), fence));
    await advance(1_000);
    await answer('put step b', () => driver.steps.put(step(job.runId, 'b', clock.now()), fence));
    await advance(1_000);
    await answer('put step c', () => driver.steps.put(step(job.runId, 'c', clock.now()), fence));
    await answer('list steps of run1', () => driver.steps.list(job.runId));
    await answer('nack job1 final', () => driver.nack(fence, BOOM));
    await advance(1_000);
    await refusal('requeue job1 fromStep "x" (no such step)', () =>
      driver.requeue(job.id, { fromStep: 'x' }),
    );
    await answer('list steps of run1', () => driver.steps.list(job.runId));
    await answer('requeue job1 fromStep "b"', () => driver.requeue(job.id, { fromStep: 'b' }));
    await answer('list steps of run1', () => driver.steps.list(job.runId));
    await answer('claim as w2', () => driver.claim({ ...LEASE, workerId: 'w2' }));
    await answer('list steps of run1', () => driver.steps.list(job.runId));
    await answer('get step b of run1', () => driver.steps.get(job.runId, 'b'));
  },
};

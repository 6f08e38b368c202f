import { fenceOf, type GoldenScenario, NOBODY_QUEUED, only } from './transcript.js';

const LEASE = { queues: ['default'], workerId: 'w1', visibilityTimeoutMs: 30_000 } as const;
const KEYED = { name: 'mail', idempotencyKey: 'order-7', tenantId: 'a' } as const;

export const deleteAnswers: GoldenScenario = {
  name: 'delete-answers',
  asserts:
    'delete refuses a running job JOB_NOT_DELETABLE, answers any other as it stood, frees its key, and a retried or foreign-tenant delete answers JOB_NOT_FOUND',
  async play({ driver, t0, answer, refusal, advance }) {
    const first = await answer('enqueue mail keyed order-7', () =>
      driver.enqueue({ ...KEYED, payload: { n: 1 } }),
    );
    const held = only(await answer('claim', () => driver.claim(LEASE)));
    await refusal('delete job1 (running)', () => driver.delete(first.id));
    await answer("ack job1 with its worker's fence", () => driver.ack(fenceOf(held)));
    await advance(1_000);
    await answer('delete job1 (completed)', () => driver.delete(first.id, { tenantId: 'a' }));
    await refusal('delete job1 again (a retry after a lost answer)', () => driver.delete(first.id));
    const later = await answer('enqueue mail keyed order-7 due in 60s', () =>
      driver.enqueue({ ...KEYED, payload: { n: 2 }, runAt: t0 + 60_000 }),
    );
    await refusal('delete job2 as tenant b', () => driver.delete(later.id, { tenantId: 'b' }));
    await answer('delete job2 (delayed)', () => driver.delete(later.id));
    await answer('enqueue mail keyed order-7 again: the key is free', () =>
      driver.enqueue({ ...KEYED, payload: { n: 3 }, onConflict: 'error' }),
    );
    await refusal('delete an id nobody queued', () => driver.delete(NOBODY_QUEUED));
    await answer(
      'list',
      () => driver.list(),
      (page) => page.jobs.map((job) => job.id),
    );
  },
};

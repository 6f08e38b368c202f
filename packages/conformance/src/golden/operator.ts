import { fenceOf, type GoldenScenario, NOBODY_QUEUED, only } from './transcript.js';

const LEASE = { queues: ['default'], workerId: 'w1', visibilityTimeoutMs: 30_000 } as const;

export const cancelRefusals: GoldenScenario = {
  name: 'cancel-refusals',
  asserts:
    'cancel of a settled job answers JOB_NOT_CANCELLABLE with its state; a cancelled worker lands nothing',
  async play({ driver, answer, refusal, advance }) {
    const done = await answer('enqueue a', () => driver.enqueue({ name: 'a', payload: { n: 1 } }));
    const first = only(await answer('claim', () => driver.claim(LEASE)));
    await answer('ack job1', () => driver.ack(fenceOf(first)));
    await refusal('cancel job1 (completed)', () => driver.cancel(done.id));
    const dead = await answer('enqueue b', () => driver.enqueue({ name: 'b', payload: { n: 2 } }));
    const second = only(await answer('claim', () => driver.claim(LEASE)));
    await answer('nack job2 final', () =>
      driver.nack(fenceOf(second), { error: { message: 'boom' }, final: true }),
    );
    await refusal('cancel job2 (dead)', () => driver.cancel(dead.id));
    const busy = await answer('enqueue c', () => driver.enqueue({ name: 'c', payload: { n: 3 } }));
    const third = only(await answer('claim', () => driver.claim(LEASE)));
    await advance(1_000);
    await answer('cancel job3 (running)', () => driver.cancel(busy.id));
    await answer("ack job3 with its worker's fence", () => driver.ack(fenceOf(third)));
    await answer('get job3', () => driver.get(busy.id));
    await refusal('cancel job3 (cancelled)', () => driver.cancel(busy.id));
    await refusal('cancel an id nobody queued', () => driver.cancel(NOBODY_QUEUED));
  },
};

export const promoteRefusals: GoldenScenario = {
  name: 'promote-refusals',
  asserts:
    'promote of anything but a delayed job not yet due answers JOB_NOT_PROMOTABLE with its effective state',
  async play({ driver, clock, t0, answer, refusal, advance }) {
    const early = await answer('enqueue report due in 60s', () =>
      driver.enqueue({ name: 'report', payload: { n: 1 }, runAt: t0 + 60_000 }),
    );
    await advance(1_000);
    await answer('promote job1', () => driver.promote(early.id));
    await refusal('promote job1 (ready)', () => driver.promote(early.id));
    const due = await answer('enqueue report due in 5s', () =>
      driver.enqueue({ name: 'report', payload: { n: 2 }, runAt: clock.now() + 5_000 }),
    );
    await advance(5_000);
    await refusal('promote job2 (delayed, now due: reads ready)', () => driver.promote(due.id));
    await answer('claim', () => driver.claim(LEASE));
    await refusal('promote job1 (running)', () => driver.promote(early.id));
    await answer('cancel job2', () => driver.cancel(due.id));
    await refusal('promote job2 (cancelled)', () => driver.promote(due.id));
    await refusal('promote an id nobody queued', () => driver.promote(NOBODY_QUEUED));
  },
};

export const tenancy: GoldenScenario = {
  name: 'tenancy',
  asserts:
    'a by-id call naming another tenant answers exactly as for an id nobody queued, and changes nothing',
  async play({ driver, t0, answer, refusal }) {
    const theirs = await answer('enqueue mail for tenant a, due in 60s', () =>
      driver.enqueue({ name: 'mail', payload: { n: 1 }, tenantId: 'a', runAt: t0 + 60_000 }),
    );
    const untenanted = await answer('enqueue mail with no tenant', () =>
      driver.enqueue({ name: 'mail', payload: { n: 2 } }),
    );
    const asB = { tenantId: 'b' };
    await answer('get job1 as tenant b', () => driver.get(theirs.id, asB));
    await answer('get an id nobody queued as tenant b', () => driver.get(NOBODY_QUEUED, asB));
    await refusal('cancel job1 as tenant b', () => driver.cancel(theirs.id, asB));
    await refusal('cancel an id nobody queued as tenant b', () =>
      driver.cancel(NOBODY_QUEUED, asB),
    );
    await refusal('promote job1 as tenant b', () => driver.promote(theirs.id, asB));
    await refusal('promote an id nobody queued as tenant b', () =>
      driver.promote(NOBODY_QUEUED, asB),
    );
    await refusal('requeue job1 as tenant b', () => driver.requeue(theirs.id, asB));
    await refusal('requeue an id nobody queued as tenant b', () =>
      driver.requeue(NOBODY_QUEUED, asB),
    );
    await answer('get job2 (no tenant) as tenant b', () => driver.get(untenanted.id, asB));
    await refusal('cancel job2 (no tenant) as tenant b', () => driver.cancel(untenanted.id, asB));
    await answer('get job1 as tenant a', () => driver.get(theirs.id, { tenantId: 'a' }));
    await answer('get job1 naming no tenant', () => driver.get(theirs.id));
    await answer('promote job1 as tenant a', () => driver.promote(theirs.id, { tenantId: 'a' }));
  },
};

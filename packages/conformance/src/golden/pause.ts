import { fenceOf, type GoldenScenario, only } from './transcript.js';

const LEASE = { queues: ['mail', 'reports'], workerId: 'w1', visibilityTimeoutMs: 30_000 } as const;

export const pauseResume: GoldenScenario = {
  name: 'pause-resume',
  asserts:
    'a paused queue is skipped by claims while enqueues land; a repeated pause answers the first pausedAt; resume answers paused false every time; a tenantId or a bad queue is refused JOB_INVALID',
  async play({ driver, answer, refusal, advance }) {
    await answer('enqueue mail', () =>
      driver.enqueue({ name: 'send', payload: { n: 1 }, queue: 'mail' }),
    );
    await answer('pause mail', () => driver.pauses.pause('mail'));
    await advance(1_000);
    await answer('pause mail again (a retried lost answer)', () => driver.pauses.pause('mail'));
    await answer('pause reports (no rows yet)', () => driver.pauses.pause('reports'));
    await answer('list', () => driver.pauses.list());
    await answer('enqueue mail while paused', () =>
      driver.enqueue({ name: 'send', payload: { n: 2 }, queue: 'mail' }),
    );
    await answer('claim mail and reports', () => driver.claim(LEASE));
    await refusal('pause mail as tenant a', () => driver.pauses.pause('mail', { tenantId: 'a' }));
    await refusal('resume mail as tenant a', () => driver.pauses.resume('mail', { tenantId: 'a' }));
    await refusal('pause an empty queue name', () => driver.pauses.pause(''));
    await answer('resume mail', () => driver.pauses.resume('mail'));
    await answer('resume mail again', () => driver.pauses.resume('mail'));
    await answer('list', () => driver.pauses.list());
    const first = only(await answer('claim one', () => driver.claim({ ...LEASE, limit: 1 })));
    await answer('pause mail', () => driver.pauses.pause('mail'));
    await answer('ack job1 (running when paused)', () => driver.ack(fenceOf(first)));
    await answer('claim mail and reports', () => driver.claim(LEASE));
  },
};

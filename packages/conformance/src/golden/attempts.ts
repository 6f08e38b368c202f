import type { ClaimedJob } from '@berth/core';
import { fenceOf, type GoldenScenario, only } from './transcript.js';

/** What a claim's answer shows here: which row, under which claim and attempt. */
const taken = (jobs: readonly ClaimedJob[]) =>
  jobs.map((job) => ({
    id: job.id,
    claim: job.claim,
    attempts: job.attempts,
    resumed: job.resumed,
  }));

export const attemptHistory: GoldenScenario = {
  name: 'attempt-history',
  asserts:
    'each end of an attempt (retry, lapse, suspend, cancel) is recorded once, in order, with its worker, instants and cut error; a stale fence records nothing; another tenant and a purge see no history',
  async play({ driver, answer, advance }) {
    const claim = (workerId: string) =>
      answer(
        `claim as ${workerId}`,
        () => driver.claim({ queues: ['default'], workerId, visibilityTimeoutMs: 1_000 }),
        taken,
      );
    const history = (op: string, id: string, tenantId?: string) =>
      answer(op, () => driver.attempts.list(id, tenantId === undefined ? {} : { tenantId }));
    const job = await answer('enqueue job1, 3 attempts, tenant acme', () =>
      driver.enqueue({ name: 'flaky', payload: { n: 1 }, maxAttempts: 3, tenantId: 'acme' }),
    );
    await history('history of job1, never claimed', job.id);
    const first = only(await claim('w1'));
    await advance(100);
    const error = { code: 'APP_FAILED', message: `too long: ${'€'.repeat(400)}`, stack: 'at a' };
    await answer('nack job1 as w1 (attempts remain)', () => driver.nack(fenceOf(first), { error }));
    const second = only(await claim('w2'));
    await advance(1_500);
    const third = only(await claim('w3'));
    await answer("ack with w2's fence (its lease lapsed, re-claimed)", () =>
      driver.ack(fenceOf(second)),
    );
    await advance(10);
    await answer('suspend job1 as w3 until now + 50', () =>
      driver.suspend(fenceOf(third), { until: driver.clock.now() + 50 }),
    );
    await advance(50);
    const resumed = only(await claim('w1'));
    await advance(5);
    await answer(
      'cancel job1 while it runs',
      () => driver.cancel(job.id),
      (row) => row.state,
    );
    await answer("ack with the resumed run's fence (cancelled)", () =>
      driver.ack(fenceOf(resumed)),
    );
    await history('history of job1', job.id);
    await history('history of job1 naming tenant acme', job.id, 'acme');
    await history('history of job1 naming tenant globex', job.id, 'globex');
    await advance(1);
    await answer('purge cancelled job1', () =>
      driver.purge({ states: ['cancelled'], olderThan: driver.clock.now(), ids: [job.id] }),
    );
    await history('history of job1 after the purge', job.id);
  },
};

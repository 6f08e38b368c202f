import type { ClaimRequest, JobRecord } from '@berth/core';
import { fenceOf, type GoldenScenario } from './transcript.js';

export const leaseBurial: GoldenScenario = {
  name: 'lease-burial',
  asserts:
    'a lease that lapses on the final attempt is buried by the next claim (dead, or failed when dropped), reported once',
  async play({ driver, answer, note, advance }) {
    const buried: (readonly JobRecord[])[] = [];
    const claim = (workerId: string, extra: Partial<ClaimRequest> = {}) =>
      driver.claim({
        queues: ['default'],
        limit: 2,
        workerId,
        visibilityTimeoutMs: 10_000,
        onExhausted: (rows) => buried.push(rows),
        ...extra,
      });
    const flaky = await answer('enqueue flaky, 2 attempts', () =>
      driver.enqueue({ name: 'flaky', payload: { n: 1 }, maxAttempts: 2 }),
    );
    const fragile = await answer('enqueue fragile, 2 attempts', () =>
      driver.enqueue({ name: 'fragile', payload: { n: 2 }, maxAttempts: 2 }),
    );
    const [first] = await answer('claim 2 as w1', () => claim('w1'));
    await advance(10_000);
    await answer('claim 2 as w2 (both leases lapsed, attempts remain)', () => claim('w2'));
    await advance(10_000);
    if (first !== undefined) {
      await answer("ack job1 with w1's fence (re-claimed since)", () => driver.ack(fenceOf(first)));
    }
    await answer('claim 2 as w3, dropExhausted [fragile] (final attempts lapsed)', () =>
      claim('w3', { dropExhausted: ['fragile'] }),
    );
    note('onExhausted calls', buried);
    await answer('get job1', () => driver.get(flaky.id));
    await answer('get job2', () => driver.get(fragile.id));
    await answer('claim 2 as w3 again', () => claim('w3'));
    note('onExhausted calls', buried);
  },
};

import { describe, expect, it } from 'vitest';
import { createClient, defineJob, isBerthError } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

const sync = defineJob<{ account: string }>({ name: 'account.sync', run: async () => {} });
const MINUTE = 60_000;

/** What `run` threw, or undefined. */
async function thrown(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('enqueue with throttle: at most one job per key per window', () => {
  it('a second enqueue in the window answers the first job, deduped; the next window makes a new one', async () => {
    const { driver, clock } = memoryOnManualClock();
    const client = createClient({ driver, jobs: [sync] });
    const throttle = { key: 'acct_1', ms: MINUTE };
    await clock.set(Date.UTC(2026, 0, 1, 12, 0, 10));
    const first = await client.enqueue(sync, { account: 'acct_1' }, { throttle });
    await clock.advance(40_000);
    const again = await client.enqueue(sync, { account: 'acct_1' }, { throttle });
    expect(again).toEqual({ ...first, deduped: true });
    // Completed or not, the window's job answers for it.
    await clock.advance(15_000);
    const next = await client.enqueue(sync, { account: 'acct_1' }, { throttle });
    expect(next.deduped).toBe(false);
    expect(next.id).not.toBe(first.id);
    expect((await driver.list({ name: 'account.sync' })).jobs).toHaveLength(2);
  });

  it('keys, job names and tenants are throttled apart', async () => {
    const { driver } = memoryOnManualClock();
    const other = defineJob<{ account: string }>({ name: 'account.export', run: async () => {} });
    const client = createClient({ driver, jobs: [sync, other] });
    const throttle = { key: 'acct_1', ms: MINUTE };
    const answers = [
      await client.enqueue(sync, { account: 'a' }, { throttle }),
      await client.enqueue(sync, { account: 'b' }, { throttle: { key: 'acct_2', ms: MINUTE } }),
      await client.enqueue(other, { account: 'a' }, { throttle }),
      await client.enqueue(sync, { account: 'a' }, { throttle, tenantId: 'acme' }),
    ];
    expect(answers.map((answer) => answer.deduped)).toEqual([false, false, false, false]);
    expect(new Set(answers.map((answer) => answer.id)).size).toBe(4);
  });

  it('a bad throttle, or one given with id, is JOB_INVALID naming the field', async () => {
    const { driver } = memoryOnManualClock();
    const client = createClient({ driver, jobs: [sync] });
    const cases: [unknown, string][] = [
      [{ key: '', ms: MINUTE }, 'throttle.key'],
      [{ key: 'k', ms: 0 }, 'throttle.ms'],
      [{ key: 'k', ms: 1.5 }, 'throttle.ms'],
      ['k', 'throttle'],
    ];
    for (const [throttle, field] of cases) {
      const error = await thrown(() =>
        client.enqueue(sync, { account: 'a' }, { throttle: throttle as never }),
      );
      expect(isBerthError(error, 'JOB_INVALID') && error.meta.field, String(throttle)).toBe(field);
    }
    const withId = await thrown(() =>
      client.enqueue(
        sync,
        { account: 'a' },
        { throttle: { key: 'k', ms: MINUTE }, id: '0190c1a0-0000-4000-8000-00000000000a' },
      ),
    );
    expect(isBerthError(withId, 'JOB_INVALID') && withId.meta.field).toBe('throttle');
    expect((await driver.list({})).jobs).toEqual([]);
  });

  it('a throttle whose fields throw when read (a getter, a revoked Proxy) is JOB_INVALID, never a raw error', async () => {
    const { driver } = memoryOnManualClock();
    const client = createClient({ driver, jobs: [sync] });
    const getter = Object.defineProperty({ ms: MINUTE }, 'key', {
      get: () => {
        throw new TypeError('boom');
      },
    });
    const { proxy, revoke } = Proxy.revocable({ key: 'k', ms: MINUTE }, {});
    revoke();
    for (const throttle of [getter, proxy]) {
      const error = await thrown(() =>
        client.enqueue(sync, { account: 'a' }, { throttle: throttle as never }),
      );
      expect(isBerthError(error, 'JOB_INVALID') && error.meta.field, String(error)).toBe(
        'throttle',
      );
    }
    expect((await driver.list({})).jobs).toEqual([]);
  });
});

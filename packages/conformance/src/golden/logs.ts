import type { LogPage } from '@berth/core';
import { fenceOf, type GoldenScenario, NOBODY_QUEUED, only } from './transcript.js';

const LEASE = { queues: ['default'], workerId: 'w1', visibilityTimeoutMs: 30_000 } as const;

export const jobLogs: GoldenScenario = {
  name: 'job-logs',
  asserts:
    'job logs: appends land for the fence holder only and a retried batch once; pages walk by seq; each line keeps its attempt; another tenant, an unknown id and bad input are refused alike',
  async play({ driver, t0, answer, refusal }) {
    // Instants as offsets from t0, like every other instant of a transcript.
    const page = (value: LogPage) => ({
      ...value,
      lines: value.lines.map((line) => ({ ...line, at: `+${line.at - t0}` })),
    });
    const lines = (label: string, count: number, at: number) =>
      Array.from({ length: count }, (_, index) => ({
        at: t0 + at + index,
        level: index === count - 1 ? ('warn' as const) : ('info' as const),
        message: `${label} ${index + 1}`,
      }));
    const made = await answer('enqueue job1, two attempts', () =>
      driver.enqueue({ name: 'report', payload: { n: 1 }, maxAttempts: 2, tenantId: 'a' }),
    );
    const first = fenceOf(only(await answer('claim', () => driver.claim(LEASE))));
    const batch = { from: 0, lines: lines('one', 3, 10) };
    await answer('append 3 lines (from 0)', () => driver.logs.append(first, batch));
    await answer('append the same batch again (its answer was lost)', () =>
      driver.logs.append(first, batch),
    );
    await answer('append with another worker’s fence', () =>
      driver.logs.append({ ...first, workerId: 'w2' }, { from: 0, lines: lines('x', 1, 0) }),
    );
    await answer('list job1', () => driver.logs.list(made.id), page);
    await answer('list job1, limit 2', () => driver.logs.list(made.id, { limit: 2 }), page);
    await answer('list job1 after 2 as tenant a', () =>
      driver.logs.list(made.id, { after: 2, tenantId: 'a' }).then(page),
    );
    await refusal('list job1 as tenant b', () => driver.logs.list(made.id, { tenantId: 'b' }));
    await refusal('list an id nobody queued', () => driver.logs.list(NOBODY_QUEUED));
    await answer('nack job1 (retry)', () => driver.nack(first, { error: { message: 'again' } }));
    const second = fenceOf(only(await answer('claim', () => driver.claim(LEASE))));
    await answer('append with the first attempt’s fence', () =>
      driver.logs.append(first, { from: 3, lines: lines('stale', 1, 20) }),
    );
    await answer('append 2 lines with the second attempt’s fence (from 0)', () =>
      driver.logs.append(second, { from: 0, lines: lines('two', 2, 30) }),
    );
    await answer('ack job1', () => driver.ack(second));
    await answer('append after the ack', () =>
      driver.logs.append(second, { from: 2, lines: lines('late', 1, 40) }),
    );
    await answer('list job1 after 1', () => driver.logs.list(made.id, { after: 1 }), page);
    await refusal('list job1, limit 501', () => driver.logs.list(made.id, { limit: 501 }));
    await refusal('append no lines', () => driver.logs.append(second, { from: 0, lines: [] }));
  },
};

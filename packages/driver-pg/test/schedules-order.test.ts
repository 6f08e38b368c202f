import { createManualClock, type Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPgDriver } from './pg-factory.js';

/**
 * Schedules are listed and come due in UTF-16 code-unit order of name, then tenant, as memory
 * orders them (`<` on JS strings). PostgreSQL's "C" collation is UTF-8 byte order: it puts
 * U+E000–U+FFFF before the astral planes, code units after (their lead surrogate is U+D800–DBFF),
 * so the driver sorts by UTF-16BE bytes instead (migration 15). Names and tenants from both sides
 * of that line, paged through `list` and read by `due`, answer as memory's.
 */

const t0 = Date.UTC(2026, 0, 1);
const NAMES = ['\u{10000}', '\uFFFF', '\uE000', '\uD7FF', '\u{1F600}x', '\u{1F600}', 'z', 'é', 'A'];
const TENANTS = [undefined, '\u{10400}', '\uFB01', 'acme'];

let pg: Awaited<ReturnType<typeof openPgDriver>>;
let memory: Driver;

beforeAll(async () => {
  pg = await openPgDriver({ clock: createManualClock(t0) });
  memory = createMemoryDriver({ clock: createManualClock(t0) });
  let n = 0;
  for (const name of NAMES) {
    for (const tenantId of TENANTS) {
      n += 1;
      const write = {
        name,
        ...(tenantId === undefined ? {} : { tenantId }),
        cron: '* * * * *',
        job: 'tick',
        payload: { n, ratio: 0.1 + 0.2, big: 1e21, tiny: 5e-324 },
        paused: false,
        // Three nextAt values, so due orders by nextAt and then by list order within each.
        nextAt: t0 - (n % 3) * 1_000,
      };
      const [onPg, onMemory] = await Promise.all([
        pg.driver.schedules.put(write, 0),
        memory.schedules.put(write, 0),
      ]);
      expect(onPg).toStrictEqual(onMemory);
    }
  }
});

afterAll(async () => {
  await pg.dispose();
  await memory.close();
});

/** Every page of `list` under `tenantId`, `limit` at a time, as `tenant/name` lines. */
async function walk(driver: Driver, tenantId: string | undefined, limit: number) {
  const seen: string[] = [];
  let after: string | undefined;
  do {
    const page = await driver.schedules.list({
      limit,
      ...(tenantId === undefined ? {} : { tenantId }),
      ...(after === undefined ? {} : { after }),
    });
    seen.push(...page.schedules.map((s) => `${s.tenantId ?? '-'}/${s.name}`));
    after = page.next;
  } while (after !== undefined);
  return seen;
}

it('list pages every tenant’s schedules, and each tenant’s, in code-unit order as memory does', async () => {
  const all = await walk(memory, undefined, 100);
  expect(all).toHaveLength(NAMES.length * TENANTS.length);
  // Astral names sort between U+D7FF and U+E000.
  expect(
    all.map((line) => line.slice(line.indexOf('/') + 1)).filter((_, i) => i % 4 === 0),
  ).toEqual(['A', 'z', 'é', '\uD7FF', '\u{10000}', '\u{1F600}', '\u{1F600}x', '\uE000', '\uFFFF']);
  for (const limit of [1, 3, 4, 100]) {
    expect(await walk(pg.driver, undefined, limit)).toEqual(all);
    for (const tenantId of TENANTS) {
      expect(await walk(pg.driver, tenantId, limit)).toEqual(await walk(memory, tenantId, limit));
    }
  }
});

it('due answers by nextAt, then code-unit order, as memory does, and keeps the payload’s numbers', async () => {
  for (const limit of [1, 5, 36, 100]) {
    expect(await pg.driver.schedules.due(t0, limit)).toStrictEqual(
      await memory.schedules.due(t0, limit),
    );
  }
  const [first] = await pg.driver.schedules.due(t0, 1);
  expect(first?.payload).toMatchObject({ ratio: 0.1 + 0.2, big: 1e21, tiny: 5e-324 });
});

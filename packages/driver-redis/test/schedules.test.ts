import { createManualClock, type Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { serverUrl } from '@berth/test-servers';
import { describe, expect, it } from 'vitest';
import { keysFor } from '../src/keys.js';
import { rawMonitor } from './raw-monitor.js';
import { adminRedis, redisDriver } from './redis-factory.js';

const T0 = Date.UTC(2026, 0, 1);

const admin = adminRedis();

/**
 * Names where UTF-8 byte order and UTF-16 code-unit order part: U+10000 and above (a surrogate
 * pair) sorts BEFORE U+E000–U+FFFF in code units, after them in UTF-8. And U+0001, which the
 * position's escape rewrites, beside the names it must sort between.
 */
const NAMES = [
  'a',
  'a\u0001',
  'a\u0001b',
  'a\u0002',
  'ab',
  'é',
  '\uD7FF',
  '\uE000',
  '\uFFFD',
  '\uFFFF',
  '\u{10000}',
  '\u{1F600}',
  '\u{1F600}x',
  '\u{10FFFF}',
];
const TENANTS = [undefined, 'acme', '\u{1F600}', '\uFFFF', 'a\u0001'];

/** The same schedules in both drivers, each due at a slot of three (so many tie). */
async function storeAll(drivers: readonly Driver[]): Promise<void> {
  let index = 0;
  for (const name of NAMES) {
    for (const tenantId of TENANTS) {
      index += 1;
      const write = {
        name,
        ...(tenantId === undefined ? {} : { tenantId }),
        cron: '*/5 * * * *',
        job: 'tick',
        payload: { index, text: 'zürich \u{1F600}', at: [1.5, -2e-7, null] },
        paused: index % 7 === 0,
        nextAt: T0 + (index % 3) * 1_000,
      };
      for (const driver of drivers) expect(await driver.schedules.put(write, 0)).toBeDefined();
    }
  }
}

/** A list cursor as core makes one, here for a position no page made (a forged one). */
const forged = (name: string, tenantId: string | null, filter: string | null = null): string =>
  `s1.${Buffer.from(JSON.stringify([name, tenantId, filter]), 'utf8').toString('base64url')}`;

describe('redis stored schedules', () => {
  it('list, its pages, its tenant filter and due order names by UTF-16 code unit as memory does, where UTF-8 byte order would not', async () => {
    const clock = createManualClock(T0);
    const { driver, dispose } = await redisDriver({ clock });
    const memory = createMemoryDriver({ clock });
    try {
      await storeAll([driver, memory]);
      const every = await memory.schedules.list({ limit: 100 });
      expect(every.schedules.length).toBe(NAMES.length * TENANTS.length);
      expect(await driver.schedules.list({ limit: 100 })).toEqual(every);
      for (const tenantId of ['acme', '\u{1F600}', '\uFFFF', 'a\u0001']) {
        expect(await driver.schedules.list({ tenantId, limit: 100 })).toEqual(
          await memory.schedules.list({ tenantId, limit: 100 }),
        );
      }
      // One page at a time: every cursor leads to the same next schedule in both.
      let after: string | undefined;
      for (let page = 0; page < 3 * NAMES.length; page += 1) {
        const options = { limit: 2, ...(after === undefined ? {} : { after }) };
        const expected = await memory.schedules.list(options);
        expect(await driver.schedules.list(options)).toEqual(expected);
        after = expected.next;
        if (after === undefined) break;
      }
      for (const upTo of [T0 - 1, T0, T0 + 1_000, T0 + 5_000]) {
        expect(await driver.schedules.due(upTo, 100)).toEqual(
          await memory.schedules.due(upTo, 100),
        );
        expect(await driver.schedules.due(upTo, 4)).toEqual(await memory.schedules.due(upTo, 4));
      }
    } finally {
      await dispose();
      await memory.close();
    }
  });

  it('a forged cursor at a position no schedule can hold (NUL, a lone surrogate) leads where memory’s does', async () => {
    const { driver, dispose } = await redisDriver({ clock: createManualClock(T0) });
    const memory = createMemoryDriver({ clock: createManualClock(T0) });
    try {
      await storeAll([driver, memory]);
      for (const after of [
        forged('a\u0000', null),
        forged('a', '\u0000'),
        forged('a', 'a\u0000'),
        forged('a\u0001', 'a\u0000x'),
        forged('\uD83D', null),
        forged('\uDE00', null),
        forged('\uD83D', 'acme'),
        forged('\u{1F600}', '\uD83D'),
      ]) {
        expect(await driver.schedules.list({ limit: 3, after })).toEqual(
          await memory.schedules.list({ limit: 3, after }),
        );
      }
    } finally {
      await dispose();
      await memory.close();
    }
  });

  it('keeps one readable hash per schedule and its index members, and a removal leaves no key behind', async () => {
    const { driver, prefix, dispose } = await redisDriver({ clock: createManualClock(T0) });
    const keys = keysFor(prefix);
    try {
      const put = (name: string, tenantId?: string) =>
        driver.schedules.put(
          {
            name,
            ...(tenantId === undefined ? {} : { tenantId }),
            cron: '0 3 * * *',
            job: 'report',
            payload: null,
            paused: false,
            nextAt: T0,
          },
          0,
        );
      await put('daily', 'acme');
      await put('daily');
      await put('\u{1F600}');
      // The hash part is qn(tenant, name): the tenant's length in bytes first, '' for none.
      expect((await admin().keys(`${keys.base}schedule:*`)).sort()).toEqual(
        [
          keys.schedule('4:acme:daily'),
          keys.schedule('0::daily'),
          keys.schedule('0::\u{1F600}'),
        ].sort(),
      );
      expect(await admin().zcard(keys.schedulesOrder())).toBe(3);
      expect(await admin().zcard(keys.schedulesTenant('acme'))).toBe(1);
      expect(await admin().zcard(keys.schedulesDue())).toBe(3);
      expect(await driver.schedules.remove('daily', 1, { tenantId: 'acme' })).toBe(true);
      expect(await driver.schedules.remove('daily', 1)).toBe(true);
      expect(await driver.schedules.remove('\u{1F600}', 1)).toBe(true);
      expect(await admin().keys(keys.pattern)).toEqual([]);
    } finally {
      await dispose();
    }
  });

  it('due reads only the due schedules: one range read and one hash read per answer, whatever else is stored', async () => {
    const url = await serverUrl('redis');
    const { driver, prefix, dispose } = await redisDriver({ clock: createManualClock(T0) });
    const tag = `{${prefix}}`;
    // Marks sent before and after the call bound the count: MONITOR lags, in the server's order.
    const marks = { open: `${tag}:count-open`, close: `${tag}:count-close` };
    const commands: string[] = [];
    let counting = false;
    let closed = false;
    const monitor = await rawMonitor(url, ({ args, source }) => {
      const command = (args[0] ?? '').toLowerCase();
      if (command === 'exists' && args[1] === marks.open) counting = true;
      else if (command === 'exists' && args[1] === marks.close) closed = true;
      else if (counting && !closed && source === 'lua' && args.some((arg) => arg.includes(tag))) {
        commands.push(command);
      }
    });
    try {
      for (let index = 0; index < 200; index += 1) {
        await driver.schedules.put(
          {
            name: `s${index}`,
            cron: '0 3 * * *',
            job: 'report',
            payload: null,
            paused: false,
            nextAt: index < 3 ? T0 : T0 + 60_000,
          },
          0,
        );
      }
      await admin().exists(marks.open);
      expect((await driver.schedules.due(T0, 100)).map((one) => one.name)).toEqual([
        's0',
        's1',
        's2',
      ]);
      await admin().exists(marks.close);
      await expect.poll(() => closed).toBe(true);
      expect(commands.sort()).toEqual(['hgetall', 'hgetall', 'hgetall', 'zrange']);
    } finally {
      monitor.close();
      await dispose();
    }
  });
});

import { isBerthError } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { keysFor, LUA_KEYS } from '../src/keys.js';
import { dropPrefix, freshPrefix, redisDriver } from './redis-factory.js';

let url: string;
let app: Redis;

beforeAll(async () => {
  url = await serverUrl('redis');
  app = new Redis(url);
});

afterAll(() => {
  app.disconnect();
});

/** Counts the commands an app connection sends, by name. */
function countCommands(connection: Redis): { names: string[]; stop: () => void } {
  const names: string[] = [];
  const original = connection.sendCommand.bind(connection);
  connection.sendCommand = (command, stream) => {
    names.push(command.name);
    return original(command, stream);
  };
  return { names, stop: () => (connection.sendCommand = original) };
}

describe('redis driver options and connections', () => {
  it("uses the app's own connection and leaves it open on close", async () => {
    const prefix = freshPrefix();
    const driver = createRedisDriver({ redis: app, prefix });
    try {
      const { id } = await driver.enqueue({ name: 'mine' });
      expect((await driver.get(id))?.name).toBe('mine');
      await driver.subscribe?.(['default'], () => {});
      await driver.close();
      expect(app.status).toBe('ready');
      expect(await app.ping()).toBe('PONG');
    } finally {
      await dropPrefix(url, prefix);
    }
  });

  it('refuses bad input before any command is sent', async () => {
    const prefix = freshPrefix();
    const driver = createRedisDriver({ redis: app, prefix, maxPayloadBytes: 16 });
    const sent = countCommands(app);
    try {
      const refusals = await Promise.all([
        driver.enqueue({ name: '' }).catch((error: unknown) => error),
        driver.enqueue({ name: 'big', payload: 'x'.repeat(32) }).catch((error: unknown) => error),
        driver.claim({ queues: [], workerId: 'w', visibilityTimeoutMs: 1 }).catch((e) => e),
        driver.get('not-a-uuid').catch((error: unknown) => error),
      ]);
      for (const refusal of refusals) expect(isBerthError(refusal, 'JOB_INVALID')).toBe(true);
      expect(sent.names).toEqual([]);
      // The counter does see what a screened call sends.
      await driver.enqueue({ name: 'small' });
      expect(sent.names[0]).toBe('evalsha');
    } finally {
      sent.stop();
      await driver.close();
      await dropPrefix(url, prefix);
    }
  });

  it('refuses a prefix that would break the hash tag, and both a connection and a URL', () => {
    for (const prefix of ['', 'a{b', 'a}b', 'a*']) {
      expect(() => createRedisDriver({ redis: app, prefix })).toThrow(/prefix/);
    }
    expect(() => createRedisDriver({ redis: app, url })).toThrow(/url/);
    expect(() => createRedisDriver({ redis: app, maxPayloadBytes: 0 })).toThrow(/maxPayloadBytes/);
  });

  it('keeps every key under the prefix hash tag, so one cluster slot holds them all', async () => {
    const { driver, prefix, dispose } = await redisDriver();
    try {
      const { id } = await driver.enqueue({ name: 'tagged', idempotencyKey: 'k', tenantId: 't' });
      await driver.events.publish('ev', { n: 1 });
      await driver.leases.acquire('leader', 'me', 1_000);
      const keys = await app.keys(`*${prefix}*`);
      expect(keys.length).toBeGreaterThan(5);
      for (const key of keys) expect(key.startsWith(`{${prefix}}:`)).toBe(true);
      expect(keys).toContain(keysFor(prefix).job(id));
    } finally {
      await dispose();
    }
  });

  it('names every key alike in the scripts and in TypeScript', async () => {
    const keys = keysFor('shape');
    const lua = `${LUA_KEYS}\nreturn { k_job('J'), k_state('ready', 'q:1'), k_listTenant('t'), k_wake() }`;
    const names = await app.eval(lua, 1, keys.base);
    expect(names).toEqual([
      keys.job('J'),
      keys.state('ready', 'q:1'),
      keys.listTenant('t'),
      keys.wake(),
    ]);
  });

  it('loads its scripts again after the server forgot them (NOSCRIPT)', async () => {
    const { driver, dispose } = await redisDriver();
    try {
      await driver.enqueue({ name: 'first' });
      await app.script('FLUSH');
      const { id } = await driver.enqueue({ name: 'second' });
      expect((await driver.get(id))?.state).toBe('ready');
    } finally {
      await dispose();
    }
  });

  it('publishes one wake per change, naming each queue that got work once', async () => {
    const { driver, prefix, dispose } = await redisDriver();
    const listener = new Redis(url);
    const messages: string[] = [];
    try {
      listener.on('message', (_channel: string, message: string) => messages.push(message));
      await listener.subscribe(keysFor(prefix).wake());
      const woke: string[] = [];
      await driver.subscribe?.(['a', 'b'], (queue) => woke.push(queue));
      await driver.enqueueMany([
        { name: 'x', queue: 'a' },
        { name: 'x', queue: 'b' },
        { name: 'x', queue: 'a' },
        { name: 'x', queue: 'c' },
      ]);
      await expect.poll(() => woke.length).toBe(2);
      await expect.poll(() => messages.length).toBe(1);
      // Nothing more follows: one message for the whole batch.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(messages).toEqual(['a\0b\0c']);
      expect(woke.sort()).toEqual(['a', 'b']);
    } finally {
      listener.disconnect();
      await dispose();
    }
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { reconnectAfterTimeout } from '../src/failover.js';

const opened: Redis[] = [];
afterEach(() => {
  for (const redis of opened.splice(0)) redis.disconnect();
});

describe('reconnect after a command timeout', () => {
  it('leaves a Sentinel connection that is already connecting alone: it never ends for good', async () => {
    // Sentinels nobody answers at: the connection stays `connecting`, as one does while the
    // sentinels still name a primary that was just killed.
    const redis = new Redis({
      sentinels: [{ host: '127.0.0.1', port: 1 }],
      name: 'mymaster',
      maxRetriesPerRequest: 0,
      sentinelRetryStrategy: () => 100,
    });
    redis.on('error', () => {});
    opened.push(redis);
    await sleep(50);
    expect(redis.status).toBe('connecting');

    const reconnected = reconnectAfterTimeout(redis, 0)(new Error('Command timed out'));

    await sleep(500);
    expect(reconnected).toBe(false);
    // `disconnect(true)` while connecting ends an ioredis Sentinel connection ("Connection is
    // closed" on every later call, no reconnect).
    expect(redis.status).not.toBe('end');
  });
});

import { isBerthError } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { describe, expect, it } from 'vitest';
import { accessFix } from '../src/access-refused.js';
import { createRedisDriver } from '../src/index.js';

describe('a server that refuses the user', () => {
  it('a wrong username or password: the fix names the url, not a recovery that will not come', async () => {
    const url = new URL(await serverUrl('redis'));
    url.username = 'berth_no_such_user';
    url.password = 'wrong';
    const driver = createRedisDriver({ url: url.toString() });
    try {
      const error = await driver.stats().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(isBerthError(error, 'DRIVER_UNAVAILABLE'), String(error)).toBe(true);
      if (!isBerthError(error, 'DRIVER_UNAVAILABLE')) return;
      expect(error.detail).toContain('WRONGPASS');
      expect(error.fix).toMatch(/username and password in url/);
      expect(error.fix).not.toContain('recovers by itself');
    } finally {
      await driver.close();
    }
  });

  it('NOAUTH and NOPERM get fixes of their own; other errors keep the default', () => {
    const reply = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });
    expect(accessFix(reply('NOAUTH Authentication required.'))).toMatch(/password in url/);
    expect(
      accessFix(reply("NOPERM User app has no permissions to run the 'evalsha' command")),
    ).toMatch(/ACL/);
    expect(accessFix(reply('ERR unknown command'))).toBeUndefined();
    expect(accessFix(new Error('connect ECONNREFUSED 127.0.0.1:1'))).toBeUndefined();
  });
});

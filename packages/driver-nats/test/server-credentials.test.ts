import { isBerthError } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { splitCredentials } from '../src/server-credentials.js';

describe('credentials in the servers URLs', () => {
  it('user and password come out of the URL, which keeps its host, port and scheme', () => {
    expect(splitCredentials('nats://app:s%40cret@10.0.0.1:4222')).toEqual({
      servers: ['nats://10.0.0.1:4222'],
      credentials: { user: 'app', pass: 's@cret' },
    });
    expect(splitCredentials('tls://app:pw@nats.example:4443').servers).toEqual([
      'tls://nats.example:4443',
    ]);
  });

  it('a name alone is a token, and host:port without a scheme is read as nats://', () => {
    expect(splitCredentials('t0ken@127.0.0.1:4222')).toEqual({
      servers: ['127.0.0.1:4222'],
      credentials: { token: 't0ken' },
    });
  });

  it('URLs without credentials pass unchanged, and one URL with them names them for all', () => {
    expect(splitCredentials(['nats://a:4222', 'b:4222'])).toEqual({
      servers: ['nats://a:4222', 'b:4222'],
      credentials: {},
    });
    expect(splitCredentials(['nats://app:pw@a:4222', 'nats://b:4222']).credentials).toEqual({
      user: 'app',
      pass: 'pw',
    });
  });

  it('different credentials in different URLs are CONFIG_INVALID: one connection has one identity', () => {
    let thrown: unknown;
    try {
      splitCredentials(['nats://app:pw@a:4222', 'nats://other:pw@b:4222']);
    } catch (error) {
      thrown = error;
    }
    expect(isBerthError(thrown, 'CONFIG_INVALID')).toBe(true);
  });
});

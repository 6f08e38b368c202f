import { serverUrl } from '@berth/test-servers';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll } from 'vitest';

/**
 * Two connections to the shared server for a file's cases, opened before them and closed after:
 * `client` makes the requests under test, `other` answers them (or stays silent).
 */
export function twoConnections(): { client: NatsConnection; other: NatsConnection } {
  const pair = {} as { client: NatsConnection; other: NatsConnection };
  beforeAll(async () => {
    const url = await serverUrl('nats');
    [pair.client, pair.other] = await Promise.all([
      connect({ servers: url }),
      connect({ servers: url }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([pair.client.close(), pair.other.close()]);
  });
  return pair;
}

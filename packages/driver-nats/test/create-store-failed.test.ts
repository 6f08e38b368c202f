import { serverUrl } from '@berth/test-servers';
import { connect } from '@nats-io/transport-node';
import { expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { dropPrefix, freshPrefix } from './nats-factory.js';
import { rerouteRequests } from './reroute-requests.js';

// nats-server 2.9.10 refuses a stream create while another process removes the account's last
// stream, and with it the directory every stream's store sits in. It says so in two ways: "could
// not create storage directory - mkdir .../$G/streams/KV_…_jobs: no such file or directory"
// (10077), and "error creating store for stream" (10049, seen in a full suite run). Asked again,
// the create lands.
const REFUSALS = [
  {
    err_code: 10_077,
    description: (prefix: string) =>
      `could not create storage directory - mkdir /var/lib/nats-server/jetstream/$G/streams/KV_${prefix}_jobs: no such file or directory`,
  },
  { err_code: 10_049, description: () => 'error creating store for stream' },
];

for (const refusal of REFUSALS) {
  it(`a bucket create the server refuses once as a store it could not make (${refusal.err_code}) is asked again, and the first call answers`, async () => {
    const url = await serverUrl('nats');
    const prefix = freshPrefix();
    const nc = await connect({ servers: url });
    let refused = 0;
    rerouteRequests(nc, (subject) => {
      if (refused > 0 || subject !== `$JS.API.STREAM.CREATE.KV_${prefix}_jobs`) return undefined;
      refused += 1;
      const answer = {
        type: 'io.nats.jetstream.api.v1.stream_create_response',
        error: { code: 500, err_code: refusal.err_code, description: refusal.description(prefix) },
      };
      return { answer: new TextEncoder().encode(JSON.stringify(answer)) };
    });
    const driver = createNatsDriver({ connection: nc, prefix });
    try {
      await expect(driver.enqueue({ name: 'first' })).resolves.toHaveProperty('id');
      expect(refused).toBe(1);
    } finally {
      await driver.close();
      await nc.close();
      await dropPrefix(url, prefix);
    }
  });
}

// An outbox relay process: moves staged rows from a PostgreSQL outbox into the run's Redis queue
// until it is killed (the outbox nemesis SIGKILLs relays at random).

import { createOutboxRelay } from '@berth/core';
import { createPgOutbox } from '@berth/driver-pg';
import { createRedisDriver } from '@berth/driver-redis';
import { startWhenReady } from './start-when-ready.ts';

interface RelaySpec {
  readonly pgUrl: string;
  readonly schema: string;
  readonly redisUrl: string;
  readonly prefix: string;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as RelaySpec;
const outbox = createPgOutbox({ connectionString: spec.pgUrl, schema: spec.schema });
const driver = createRedisDriver({ url: spec.redisUrl, prefix: spec.prefix });
// A small batch and a short poll: kills land mid-batch often, and a relay whose LISTEN
// connection broke with the server still finds rows soon.
const relay = createOutboxRelay({
  store: outbox.store,
  driver,
  batchSize: 50,
  pollIntervalMs: 200,
});

startWhenReady(relay);

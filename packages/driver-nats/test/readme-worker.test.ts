import { createClient, createWorker, defineJob } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { readmeWorkerQuickStart } from '@berth/test-servers/readme-worker';
import { createNatsDriver, type NatsDriverOptions } from '../src/index.js';
import { dropPrefix, freshPrefix } from './nats-factory.js';

readmeWorkerQuickStart({
  testFile: import.meta.url,
  steps: 'connect, define, enqueue, work, stop',
  driverImport: "import { createNatsDriver } from '@berth/driver-nats';",
  core: { createClient, createWorker, defineJob },
  // The snippet runs on a prefix of its own, so it can never meet another test's streams.
  async sandbox() {
    const prefix = freshPrefix();
    const url = await serverUrl('nats');
    return {
      bindings: {
        createNatsDriver: (options: NatsDriverOptions) => createNatsDriver({ ...options, prefix }),
        process: { env: { NATS_URL: url } },
      },
      dispose: () => dropPrefix(url, prefix),
    };
  },
});

import { createClient, createWorker, defineJob } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { readmeWorkerQuickStart } from '@berth/test-servers/readme-worker';
import { createRedisDriver, type RedisDriverOptions } from '../src/index.js';
import { dropPrefix, freshPrefix } from './redis-factory.js';

readmeWorkerQuickStart({
  testFile: import.meta.url,
  steps: 'connect, define, enqueue, work, stop',
  driverImport: "import { createRedisDriver } from '@berth/driver-redis';",
  core: { createClient, createWorker, defineJob },
  // The snippet runs on a prefix of its own, so it can never meet another test's keys.
  async sandbox() {
    const prefix = freshPrefix();
    const url = await serverUrl('redis');
    return {
      bindings: {
        createRedisDriver: (options: RedisDriverOptions) =>
          createRedisDriver({ ...options, prefix }),
        process: { env: { REDIS_URL: url } },
      },
      dispose: () => dropPrefix(url, prefix),
    };
  },
});

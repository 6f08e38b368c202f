import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describeCrashRecovery } from '@berth/conformance';
import { natsDriver } from './nats-factory.js';

describeCrashRecovery({
  open: async () => {
    const { driver, url, prefix, dispose } = await natsDriver();
    return { driver, dispose, env: { CRASH_NATS_URL: url, CRASH_PREFIX: prefix } };
  },
  driverModule: fileURLToPath(new URL('./fixtures/crash-driver.ts', import.meta.url)),
  // The workers run the TypeScript sources, as the tests do, through tsx's loader.
  execArgv: [
    '--conditions=@berth/source',
    '--import',
    createRequire(import.meta.url).resolve('tsx/esm'),
  ],
});

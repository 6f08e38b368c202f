import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describeCrashRecovery } from '@berth/conformance';
import { serverUrl } from '@berth/test-servers';
import { openPgDriver } from './pg-factory.js';

describeCrashRecovery({
  open: async () => {
    const { driver, schema, dispose } = await openPgDriver();
    return { driver, dispose, env: { CRASH_PG_URL: await serverUrl('pg'), CRASH_SCHEMA: schema } };
  },
  driverModule: fileURLToPath(new URL('./fixtures/crash-driver.ts', import.meta.url)),
  // The workers run the TypeScript sources, as the tests do, through tsx's loader.
  execArgv: [
    '--conditions=@berth/source',
    '--import',
    createRequire(import.meta.url).resolve('tsx/esm'),
  ],
});

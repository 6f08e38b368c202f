import { readmeBlock } from '@berth/test-servers';

const MEMORY_IMPORT = "import { createMemoryDriver } from '@berth/driver-memory';";
const MEMORY_DRIVER = 'const driver = createMemoryDriver();';

/** The root README's first example, exactly as written (memory driver). */
export const firstJob = (): string =>
  readmeBlock(new URL('../../../README.md', import.meta.url), 'first-job');

/**
 * The first example with its driver swapped as the README says ("swap createMemoryDriver() for
 * createPgDriver({ connectionString }) after migrate, or createRedisDriver({ url })"), on a schema
 * or prefix of its own, closing the driver at the end so the process exits. A README that no
 * longer has the lines swapped throws, so the swap can never silently stop happening.
 */
export function firstJobOn(kind: 'pg' | 'redis'): string {
  const source = firstJob();
  if (!source.includes(MEMORY_IMPORT) || !source.includes(MEMORY_DRIVER)) {
    throw new Error(
      `the first-job example no longer has "${MEMORY_IMPORT}" and "${MEMORY_DRIVER}"`,
    );
  }
  const [driverImport, driver] =
    kind === 'pg'
      ? [
          "import { createPgDriver } from '@berth/driver-pg';",
          'const driver = createPgDriver({ connectionString: process.env.DATABASE_URL, schema: process.env.BERTH_SCHEMA });\nawait driver.migrate();',
        ]
      : [
          "import { createRedisDriver } from '@berth/driver-redis';",
          'const driver = createRedisDriver({ url: process.env.REDIS_URL, prefix: process.env.BERTH_PREFIX });',
        ];
  return `${source.replace(MEMORY_IMPORT, driverImport).replace(MEMORY_DRIVER, driver)}await driver.close();\n`;
}

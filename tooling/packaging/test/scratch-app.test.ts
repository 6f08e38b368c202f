import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropPgSchema, dropRedisPrefix, serverUrl } from '@berth/test-servers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { firstJob, firstJobOn } from '../src/first-job.js';
import { packAll, publishedPackages, run } from '../src/pack.js';
import { APP_PACKAGES, installScratchApp, typeErrors } from '../src/scratch-app.js';

// A new user's path: the packed tarballs installed by npm into a fresh app, then compiled and run
// as that app would be. Nothing here reaches the workspace's sources.
const scratch = mkdtempSync(join(tmpdir(), 'berth-app-'));
const app = join(scratch, 'app');
const tsc = (pkg: string) =>
  fileURLToPath(new URL(`../node_modules/${pkg}/bin/tsc`, import.meta.url));

// Both type-checks start once the app is installed and run side by side: each is a compiler
// process reading all of @types/node, the slowest part of this file.
let current: Promise<string[]>;
let oldest: Promise<string[]>;

beforeAll(async () => {
  const wanted = publishedPackages().filter(({ name }) =>
    (APP_PACKAGES as readonly string[]).includes(name),
  );
  const packed = await packAll(wanted, scratch);
  rmSync(app, { recursive: true, force: true });
  await run('mkdir', [app]);
  await installScratchApp(app, packed);
  writeFileSync(join(app, 'src', 'memory.ts'), firstJob());
  writeFileSync(join(app, 'src', 'pg.ts'), firstJobOn('pg'));
  writeFileSync(join(app, 'src', 'redis.ts'), firstJobOn('redis'));
  current = typeErrors(tsc('typescript'), app, ['--noEmit']);
  oldest = typeErrors(tsc('typescript-oldest'), app, ['--noEmit']);
  // Awaited by their tests; marked handled so a failure is reported there, not as unhandled.
  current.catch(() => {});
  oldest.catch(() => {});
}, 90_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it('require() loads every package from CommonJS (require(esm), Node 20.19+)', async () => {
  const names = JSON.stringify(APP_PACKAGES);
  const script = `for (const name of ${names}) console.log(name, Object.keys(require(name)).length > 0);`;
  writeFileSync(join(app, 'require.cjs'), script);
  const { stdout } = await run(process.execPath, ['require.cjs'], { cwd: app });
  expect(stdout.trim().split('\n')).toEqual(APP_PACKAGES.map((name) => `${name} true`));
});

it('the first example type-checks with skipLibCheck off and customConditions ["source"]', async () => {
  expect(await current).toEqual([]);
}, 60_000);

it('type-checks with the oldest supported TypeScript, 5.4', async () => {
  const { stdout } = await run(process.execPath, [tsc('typescript-oldest'), '--version']);
  expect(stdout.trim()).toBe('Version 5.4.5');
  const errors = await oldest;
  // pg's own pg-protocol declarations use the generic Buffer of @types/node, which needs
  // TypeScript 5.7 when skipLibCheck is off; nothing else may fail, least of all Berth's files.
  expect(errors.filter((line) => !line.startsWith('node_modules/pg-protocol/'))).toEqual([]);
}, 60_000);

it('the first example runs as written on memory, pg and redis', async () => {
  // Emit only: the tests above type-check the same files.
  expect(await typeErrors(tsc('typescript'), app, ['--noCheck'])).toEqual([]);
  const schema = `types_pack_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const prefix = `types-pack-${randomUUID().slice(0, 12)}`;
  const [pgUrl, redisUrl] = await Promise.all([serverUrl('pg'), serverUrl('redis')]);
  const env = {
    ...process.env,
    DATABASE_URL: pgUrl,
    BERTH_SCHEMA: schema,
    REDIS_URL: redisUrl,
    BERTH_PREFIX: prefix,
  };
  try {
    const outputs = await Promise.all(
      ['memory', 'pg', 'redis'].map(async (kind) => {
        const { stdout } = await run(process.execPath, [`out/${kind}.js`], {
          cwd: app,
          env,
          timeout: 30_000,
        });
        return [kind, stdout.trim()];
      }),
    );
    expect(outputs).toEqual([
      ['memory', "completed { sentTo: 'u_1' }"],
      ['pg', "completed { sentTo: 'u_1' }"],
      ['redis', "completed { sentTo: 'u_1' }"],
    ]);
  } finally {
    await Promise.all([dropPgSchema(pgUrl, schema), dropRedisPrefix(redisUrl, prefix)]);
  }
}, 60_000);

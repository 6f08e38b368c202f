import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, run } from './pack.js';

/** The libraries a scratch app installs: core, the drivers the first example runs on, the dashboard. */
export const APP_LIBRARIES = [
  '@berth/core',
  '@berth/driver-memory',
  '@berth/driver-pg',
  '@berth/driver-redis',
  '@berth/dashboard',
] as const;

/** Everything a scratch app installs: the libraries and the `berth` command. */
export const APP_PACKAGES = [...APP_LIBRARIES, '@berth/cli'] as const;

/**
 * An app's dashboard as the README mounts it (`createDashboard` in `node:http`) over the memory
 * driver: it prints the status and type of the page and of the overview API, then closes.
 */
export const DASHBOARD_PROBE = `import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDashboard } from '@berth/dashboard';
import { createMemoryDriver } from '@berth/driver-memory';

const driver = createMemoryDriver();
const dashboard = createDashboard({ driver });
const server = createServer(dashboard);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`;
for (const path of ['/', '/api/overview']) {
  const response = await fetch(base + path);
  console.log(path, response.status, response.headers.get('content-type'));
}
server.close();
dashboard.close();
await driver.close();
`;

/**
 * The version of `dependency` a driver's own tests ran against (the workspace's lockfile): the
 * scratch app pins it, so a client library's newer release (ioredis 6.1.0's declarations import
 * the untyped `redis-errors`) cannot decide whether Berth's packages install cleanly.
 */
function testedVersion(driver: string, dependency: string): string {
  const manifest = join(root, 'packages', driver, 'node_modules', dependency, 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/**
 * A fresh npm app in `dir` depending on Berth's packages at `version`, from `registry` only (the
 * app's .npmrc maps the @berth scope to it), plus what the READMEs tell a user to add (`pg`,
 * `ioredis`) from npm's own registry; `@types/pg` is deliberately absent, it must come with
 * driver-pg.
 */
export async function installScratchApp(
  dir: string,
  registry: string,
  version: string,
): Promise<void> {
  const manifest = {
    name: 'berth-scratch-app',
    private: true,
    type: 'module',
    dependencies: {
      ...Object.fromEntries(APP_PACKAGES.map((name) => [name, version])),
      pg: testedVersion('driver-pg', 'pg'),
      ioredis: testedVersion('driver-redis', 'ioredis'),
      '@types/node': '^20.19.0',
    },
  };
  writeFileSync(join(dir, '.npmrc'), `@berth:registry=${registry}\n`);
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  // A common monorepo setting: it must not reach Berth's own source (issue 13, item 9).
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      skipLibCheck: false,
      types: ['node'],
      customConditions: ['source'],
      rootDir: 'src',
      outDir: 'out',
    },
    include: ['src'],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  mkdirSync(join(dir, 'src'));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    timeout: 45_000,
  });
}

/** One diagnostic per line, as `tsc --pretty false` prints them; none when it compiles. */
export async function typeErrors(tsc: string, dir: string, args: string[] = []): Promise<string[]> {
  try {
    await run(process.execPath, [tsc, '-p', dir, '--pretty', 'false', ...args], { cwd: dir });
    return [];
  } catch (error) {
    const { stdout = '' } = error as { stdout?: string };
    return stdout.split('\n').filter((line) => line.trim() !== '');
  }
}

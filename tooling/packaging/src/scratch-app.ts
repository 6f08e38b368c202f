import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Packed } from './pack.js';
import { root, run } from './pack.js';

/** The packages a scratch app installs: core and the drivers the first example runs on. */
export const APP_PACKAGES = [
  '@berth/core',
  '@berth/driver-memory',
  '@berth/driver-pg',
  '@berth/driver-redis',
] as const;

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
 * A fresh npm app in `dir` depending on the packed tarballs plus what the READMEs tell a user to
 * add (`pg`, `ioredis`); `@types/pg` is deliberately absent, it must come with driver-pg. The
 * override points every `@berth/core` dependency at the tarball, never at the registry.
 */
export async function installScratchApp(dir: string, packed: Map<string, Packed>): Promise<void> {
  const tarball = (name: string) => `file:${packed.get(name)?.tarball}`;
  const dependencies = Object.fromEntries(APP_PACKAGES.map((name) => [name, tarball(name)]));
  const manifest = {
    name: 'berth-scratch-app',
    private: true,
    type: 'module',
    dependencies: {
      ...dependencies,
      pg: testedVersion('driver-pg', 'pg'),
      ioredis: testedVersion('driver-redis', 'ioredis'),
      '@types/node': '^20.19.0',
    },
    overrides: { '@berth/core': tarball('@berth/core') },
  };
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

import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropPgSchema, dropRedisPrefix, serverUrl } from '@berth/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Changeset,
  missingFromChangelog,
  nextVersion,
  readChangesets,
} from '../src/changesets.js';
import { firstJob, firstJobOn } from '../src/first-job.js';
import { git } from '../src/git.js';
import { type Manifest, publishedPackages, root, run } from '../src/pack.js';
import {
  download,
  type Published,
  sourceEntryPoints,
  testFiles,
  unmappedSources,
  unresolvedRanges,
} from '../src/published.js';
import { type Registry, startRegistry } from '../src/registry.js';
import { changesetPublish, changesetVersion } from '../src/release.js';
import { copyWorkingTree, releaseState } from '../src/repo-copy.js';
import {
  APP_LIBRARIES,
  APP_PACKAGES,
  DASHBOARD_PROBE,
  installScratchApp,
  typeErrors,
} from '../src/scratch-app.js';

// The release a maintainer runs (RELEASING.md), rehearsed on a copy of this working tree:
// `changeset version`, `changeset publish` into a private registry on loopback, then a new user's
// app that installs Berth from that registry only and is compiled and run as that app would be.
let scratch: string;
/** The copy of the working tree the release is run in. */
let copy: string;
/** The new user's app. */
let app: string;
const tsc = (pkg: string) =>
  fileURLToPath(new URL(`../node_modules/${pkg}/bin/tsc`, import.meta.url));
const manifestIn = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

const names = publishedPackages().map(({ name }) => name);
let before: Record<string, unknown>;
let registry: Registry | undefined;
let pending: Changeset[];
/** The public packages' one version in the working tree, before `changeset version`. */
let treeVersion: string;
/** The version `changeset version` gave them. */
let version: string;
let published: Map<string, Published>;
// Both type-checks start once the app is installed and run side by side: each is a compiler
// process reading all of @types/node, the slowest part of this file.
let current: Promise<string[]>;
let oldest: Promise<string[]>;
let emitted: Promise<string[]> | undefined;
/** Compiles the app's files to out/ once (emit only: the type-checks read the same files). */
const emit = () => {
  emitted ??= typeErrors(tsc('typescript'), app, ['--noCheck']);
  return emitted;
};

beforeAll(async () => {
  before = await releaseState(root);
  scratch = mkdtempSync(join(tmpdir(), 'berth-release-'));
  copy = join(scratch, 'repo');
  app = join(scratch, 'app');
  mkdirSync(copy);
  mkdirSync(app);
  mkdirSync(join(scratch, 'registry'));
  await copyWorkingTree(copy);
  pending = readChangesets(copy);
  treeVersion = manifestIn(join(copy, 'packages', 'core')).version ?? '';
  // The registry starts while changesets versions the copy, and is kept as soon as it listens so
  // that afterAll stops it even when versioning fails.
  const starting = startRegistry(join(scratch, 'registry')).then((started) => {
    registry = started;
    return started;
  });
  const [started] = await Promise.all([starting, changesetVersion(copy)]);
  await changesetPublish(copy, started);
  version = manifestIn(join(copy, 'packages', 'core')).version ?? '';
  const tarballs = join(scratch, 'published');
  const [downloads] = await Promise.all([
    Promise.all(names.map((name) => download(started, name, tarballs))),
    installScratchApp(app, started.url, version),
  ]);
  published = new Map(downloads.map((entry) => [entry.name, entry]));
  writeFileSync(join(app, 'src', 'memory.ts'), firstJob());
  writeFileSync(join(app, 'src', 'pg.ts'), firstJobOn('pg'));
  writeFileSync(join(app, 'src', 'redis.ts'), firstJobOn('redis'));
  writeFileSync(join(app, 'src', 'dashboard.ts'), DASHBOARD_PROBE);
  current = typeErrors(tsc('typescript'), app, ['--noEmit']);
  oldest = typeErrors(tsc('typescript-oldest'), app, ['--noEmit']);
  // Awaited by their tests; marked handled so a failure is reported there, not as unhandled.
  current.catch(() => {});
  oldest.catch(() => {});
}, 180_000);
afterAll(async () => {
  await registry?.stop();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('the release, versioned and published from a copy of the working tree', () => {
  it('leaves this repository as it found it: no version, changelog, changeset, tag or .npmrc written', async () => {
    expect(await releaseState(root)).toEqual(before);
  });

  it("publishes every public package at one version: the tree's, bumped once by its highest pending changeset (0.0.0 to 0.1.0 for the first)", () => {
    const expected = nextVersion(treeVersion, pending, names);
    const bumping = pending.filter((changeset) =>
      names.some((name) => (changeset.releases.get(name) ?? 'none') !== 'none'),
    );
    expect({ bumping: bumping.length > 0, moved: expected !== treeVersion }).toEqual({
      bumping: bumping.length > 0,
      moved: bumping.length > 0,
    });
    const versions = names.map((name) => [name, published.get(name)?.version]);
    expect(versions).toEqual(names.map((name) => [name, expected]));
  });

  it('neither publishes, versions nor tags a private package', async () => {
    const manifests = (await git(copy, 'ls-files', '*package.json'))
      .split('\n')
      .filter((path) => path !== '' && path !== 'package.json')
      .map((path) => ({ path: dirname(path), manifest: manifestIn(join(root, dirname(path))) }))
      .filter(({ manifest }) => manifest.private === true);
    expect(manifests.length).toBeGreaterThanOrEqual(4);
    for (const { path, manifest } of manifests) {
      expect({ name: manifest.name, registry: await registry?.packument(manifest.name) }).toEqual({
        name: manifest.name,
        registry: undefined,
      });
      expect({ path, version: manifestIn(join(copy, path)).version }).toEqual({
        path,
        version: manifest.version,
      });
    }
    const tags = (await git(copy, 'tag', '--list')).split('\n').filter((tag) => tag !== '');
    expect(tags.sort()).toEqual(names.map((name) => `${name}@${version}`).sort());
  });

  it('leaves no workspace: or catalog: range in a published manifest, and every Berth range names the release', () => {
    for (const { name, manifest } of published.values()) {
      expect({ name, unresolved: unresolvedRanges(manifest) }).toEqual({ name, unresolved: [] });
      const own = (['dependencies', 'peerDependencies', 'optionalDependencies'] as const).flatMap(
        (field) => Object.entries(manifest[field] ?? {}).filter(([dep]) => names.includes(dep)),
      );
      for (const [dependency, range] of own) {
        expect({ name, dependency, range }).toEqual({ name, dependency, range: `^${version}` });
      }
    }
  });

  it('points no entry point (main, types, bin, exports) into src/: only the repo-private @berth/source condition does', () => {
    for (const { name, manifest } of published.values()) {
      expect({ name, intoSrc: sourceEntryPoints(manifest) }).toEqual({ name, intoSrc: [] });
    }
  });

  it('ships only the src/ files its source and declaration maps name, and no test file', () => {
    for (const entry of published.values()) {
      expect({ name: entry.name, unmapped: unmappedSources(entry) }).toEqual({
        name: entry.name,
        unmapped: [],
      });
      expect({ name: entry.name, tests: testFiles(entry.files) }).toEqual({
        name: entry.name,
        tests: [],
      });
    }
  });

  it("ships each public package's CHANGELOG.md in its tarball: a section for the release naming every changeset that lists the package", () => {
    for (const { name } of publishedPackages(copy)) {
      const path = join(published.get(name)?.dir ?? '', 'CHANGELOG.md');
      const changelog = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
      expect({ name, missing: missingFromChangelog(changelog, name, version, pending) }).toEqual({
        name,
        missing: [],
      });
    }
  });
});

describe('a new app installing Berth from the registry only', () => {
  it("installs the registry's tarballs: each @berth package's lockfile integrity is the published one", () => {
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; integrity?: string }>;
    };
    for (const name of APP_PACKAGES) {
      const { version: installed, integrity } = lock.packages[`node_modules/${name}`] ?? {};
      expect({ name, installed, integrity }).toEqual({
        name,
        installed: version,
        integrity: published.get(name)?.integrity,
      });
    }
  });

  it('require() loads every library from CommonJS (require(esm), Node 20.19+)', async () => {
    const script = `for (const name of ${JSON.stringify(APP_LIBRARIES)}) console.log(name, Object.keys(require(name)).length > 0);`;
    writeFileSync(join(app, 'require.cjs'), script);
    const { stdout } = await run(process.execPath, ['require.cjs'], { cwd: app });
    expect(stdout.trim().split('\n')).toEqual(APP_LIBRARIES.map((name) => `${name} true`));
  });

  it('type-checks the first example and the dashboard with skipLibCheck off and customConditions ["source"]', async () => {
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

  it('runs the first example as written on memory, pg and redis', async () => {
    expect(await emit()).toEqual([]);
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

  it('runs berth from node_modules/.bin: --help prints its usage, --version the release', async () => {
    const berth = join(app, 'node_modules', '.bin', 'berth');
    const [help, printed] = await Promise.all([
      run(berth, ['--help'], { cwd: app }),
      run(berth, ['--version'], { cwd: app }),
    ]);
    expect(help.stdout).toMatch(/^Usage: berth \[options\] \[command\]/);
    expect(help.stdout).toMatch(/^Commands:$/m);
    expect(printed.stdout.trim()).toBe(version);
  });

  it('mounts the dashboard in node:http: its page and its API answer', async () => {
    expect(await emit()).toEqual([]);
    const { stdout } = await run(process.execPath, ['out/dashboard.js'], {
      cwd: app,
      timeout: 30_000,
    });
    expect(stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^\/ 200 text\/html/),
      expect.stringMatching(/^\/api\/overview 200 application\/json/),
    ]);
  });
});

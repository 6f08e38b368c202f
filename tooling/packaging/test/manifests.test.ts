import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inBatches, type Packed, packAll, publishedPackages, run } from '../src/pack.js';

// What a release publishes is the tarball `pnpm pack` writes (catalog: and workspace: resolved),
// so every check here reads the tarballs, never the workspace's package.json files.
const destination = mkdtempSync(join(tmpdir(), 'berth-pack-'));
let packed: Map<string, Packed>;
const bin = (name: string) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
const libraries = () => [...packed.values()].filter((entry) => entry.manifest.exports?.['.']);

beforeAll(async () => {
  packed = await packAll(publishedPackages(), destination);
}, 60_000);
afterAll(() => rmSync(destination, { recursive: true, force: true }));

/** `null` when the command exits 0, else its output: a failure message names what is wrong. */
async function problems(command: string, args: string[]): Promise<string | null> {
  try {
    await run(command, args, { env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } });
    return null;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return `${stdout}${stderr}`;
  }
}

describe('packed manifests', () => {
  it('packs every published package', () => {
    expect([...packed.keys()].sort()).toEqual(
      publishedPackages()
        .map((p) => p.name)
        .sort(),
    );
  });

  it('export a default condition (require(esm) and every resolver) and no "source" condition', () => {
    for (const { name, manifest } of libraries()) {
      const root = manifest.exports?.['.'] as Record<string, string>;
      expect({ name, conditions: Object.keys(root) }).toEqual({
        name,
        conditions: ['@berth/source', 'types', 'default'],
      });
      expect({ name, default: root.default, main: manifest.main }).toEqual({
        name,
        default: './dist/index.js',
        main: './dist/index.js',
      });
      expect({ name, types: root.types }).toEqual({ name, types: manifest.types });
    }
  });

  it('state the Node versions that can require() them, and TypeScript 5.4 or newer', () => {
    for (const { name, manifest } of packed.values()) {
      expect({ name, node: manifest.engines?.node }).toEqual({
        name,
        node: '^20.19.0 || >=22.12.0',
      });
    }
    for (const { name, manifest } of libraries()) {
      expect({ name, ts: manifest.peerDependencies?.typescript }).toEqual({ name, ts: '>=5.4' });
      expect({ name, optional: manifest.peerDependenciesMeta?.typescript?.optional }).toEqual({
        name,
        optional: true,
      });
    }
  });

  it('depend on ranges, never exact versions', () => {
    const exact = /^\d+\.\d+\.\d+(-[\w.]+)?$/;
    for (const { name, manifest } of packed.values()) {
      const specs = { ...manifest.dependencies, ...manifest.peerDependencies };
      const pinned = Object.entries(specs).filter(([, spec]) => exact.test(spec));
      expect({ name, pinned }).toEqual({ name, pinned: [] });
    }
  });

  it('take @berth/core as a peer dependency, never their own copy: one core per app, so its errors, registries and hubs are one', () => {
    for (const { name, manifest } of packed.values()) {
      if (name === '@berth/core') continue;
      const ownCopy = manifest.dependencies?.['@berth/core'];
      const peer = manifest.peerDependencies?.['@berth/core'];
      expect({ name, ownCopy, peer: typeof peer }).toEqual({
        name,
        ownCopy: undefined,
        peer: 'string',
      });
    }
  });

  it("driver-pg depends on @types/pg, since its declarations import pg's types", () => {
    const pg = packed.get('@berth/driver-pg')?.manifest;
    expect(pg?.dependencies?.['@types/pg']).toMatch(/^\^8\./);
  });
});

describe('packed tarballs', () => {
  it('pass publint --strict', async () => {
    const found = await inBatches([...packed.values()], 4, async ({ name, tarball }) => ({
      name,
      problems: await problems(bin('publint'), ['run', tarball, '--strict']),
    }));
    expect(found.filter((entry) => entry.problems !== null)).toEqual([]);
  }, 60_000);

  // ESM only: Node 20.19+/22.12+ require() it (require(esm)); older CJS resolution is out of scope,
  // so the profile ignores node10 and node16-from-CJS and fails on anything else.
  it('pass arethetypeswrong (esm-only profile)', async () => {
    const found = await inBatches([...packed.values()], 4, async ({ name, tarball }) => ({
      name,
      problems: await problems(bin('attw'), [
        tarball,
        '--profile',
        'esm-only',
        '--format',
        'ascii',
      ]),
    }));
    expect(found.filter((entry) => entry.problems !== null)).toEqual([]);
  }, 60_000);
});

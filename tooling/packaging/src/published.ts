import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { type Manifest, run } from './pack.js';
import type { Registry } from './registry.js';

/** One published package as the registry serves it: its tarball unpacked. */
export interface Published {
  readonly name: string;
  readonly version: string;
  /** `dist.integrity` in the packument: what an install of this version must have fetched. */
  readonly integrity: string;
  readonly manifest: Manifest;
  /** Every file of the tarball, relative to its package/ folder. */
  readonly files: readonly string[];
  /** Where the tarball was unpacked. */
  readonly dir: string;
}

/** Every file under `dir`, relative to it. */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path, base) : [relative(base, path)];
  });
}

/** Downloads the `latest` version of `name` from `registry` and unpacks it under `destination`. */
export async function download(
  registry: Registry,
  name: string,
  destination: string,
): Promise<Published> {
  const packument = await registry.packument(name);
  const version = packument?.['dist-tags'].latest;
  const dist = version === undefined ? undefined : packument?.versions[version]?.dist;
  if (version === undefined || dist === undefined) {
    throw new Error(`${registry.url} holds no latest version of ${name}: it was not published`);
  }
  const response = await fetch(dist.tarball);
  if (!response.ok) throw new Error(`${dist.tarball} answered ${response.status}`);
  const dir = join(destination, name);
  mkdirSync(dir, { recursive: true });
  const tarball = `${dir}.tgz`;
  writeFileSync(tarball, Buffer.from(await response.arrayBuffer()));
  await run('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
  return { name, version, integrity: dist.integrity, manifest, files: walk(dir).sort(), dir };
}

const DEPENDENCY_FIELDS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
] as const;

/** Every dependency left as a pnpm-only protocol (`workspace:`, `catalog:`): npm cannot install it. */
export function unresolvedRanges(manifest: Manifest): string[] {
  return DEPENDENCY_FIELDS.flatMap((field) =>
    Object.entries(manifest[field] ?? {})
      .filter(([, spec]) => /^(workspace|catalog):/.test(spec))
      .map(([dependency, spec]) => `${field}.${dependency}: ${spec}`),
  );
}

/**
 * The repo-private export condition: it points at src/ so the workspace's tests and tools run on
 * source, and no app sets it (packing keeps it, and the manifests test holds it to that name).
 */
const SOURCE_CONDITION = '@berth/source';

/** Every entry point (main, types, bin, an export under any condition but the repo-private one) into src/. */
export function sourceEntryPoints(manifest: Manifest): string[] {
  const intoSrc = (target: string) => /^(\.\/)?src\//.test(target);
  const exportsInto = (value: unknown, at: string): string[] => {
    if (typeof value === 'string') return intoSrc(value) ? [`${at}: ${value}`] : [];
    if (value === null || typeof value !== 'object') return [];
    return Object.entries(value)
      .filter(([key]) => key !== SOURCE_CONDITION)
      .flatMap(([key, inner]) => exportsInto(inner, `${at}[${JSON.stringify(key)}]`));
  };
  const bins = Object.entries(manifest.bin ?? {}).map(([name, target]) => [`bin.${name}`, target]);
  const fields = { main: manifest.main, types: manifest.types, ...Object.fromEntries(bins) };
  return [
    ...Object.entries(fields)
      .filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string' && intoSrc(entry[1]),
      )
      .map(([field, target]) => `${field}: ${target}`),
    ...exportsInto(manifest.exports ?? {}, 'exports'),
  ];
}

/**
 * Every src/ file in the tarball that no shipped source map or declaration map names. src/ ships
 * on purpose: the maps point into it, so an editor's go-to-definition and a stack trace land on
 * the TypeScript a user can read. A file no map names (a test, a fixture, a stray script) is not
 * meant to be there.
 */
export function unmappedSources(published: Published): string[] {
  const named = new Set<string>();
  for (const map of published.files.filter((file) => file.endsWith('.map'))) {
    const { sources = [], sourceRoot = '' } = JSON.parse(
      readFileSync(join(published.dir, map), 'utf8'),
    ) as { sources?: string[]; sourceRoot?: string };
    for (const source of sources) named.add(normalize(join(dirname(map), sourceRoot, source)));
  }
  return published.files.filter((file) => file.startsWith('src/') && !named.has(file));
}

/** Every file of the tarball that is a test or lives in a test folder. */
export function testFiles(files: readonly string[]): string[] {
  return files.filter(
    (file) =>
      /(^|\/)(test|tests|__tests__)\//.test(file) ||
      /\.(test|spec|test-d)\.(d\.)?[cm]?[jt]sx?(\.map)?$/.test(file),
  );
}

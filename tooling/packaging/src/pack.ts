import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const run = promisify(execFile);

/** The repository root. */
export const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface Manifest {
  readonly name: string;
  readonly version?: string;
  readonly private?: boolean;
  readonly files?: readonly string[];
  readonly main?: string;
  readonly types?: string;
  readonly bin?: Record<string, string>;
  readonly exports?: Record<string, unknown>;
  readonly engines?: Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>;
}

export interface Packed {
  readonly name: string;
  /** Absolute path of the tarball `pnpm pack` wrote. */
  readonly tarball: string;
  /** The package.json inside the tarball: what npm users get (catalog: and workspace: resolved). */
  readonly manifest: Manifest;
}

/** Every package under `repo`'s packages/ that is published (not private), by directory. */
export function publishedPackages(repo = root): { readonly dir: string; readonly name: string }[] {
  const packagesDir = join(repo, 'packages');
  return readdirSync(packagesDir)
    .map((entry) => join(packagesDir, entry))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ dir, manifest }) => ({ dir, name: manifest.name as string }));
}

/** Packs each package with `pnpm pack` into `destination`, as a release would. */
export async function packAll(
  packages: readonly { readonly dir: string; readonly name: string }[],
  destination: string,
): Promise<Map<string, Packed>> {
  const packed = await Promise.all(
    packages.map(async ({ dir, name }) => {
      const { stdout } = await run('pnpm', ['pack', '--json', '--pack-destination', destination], {
        cwd: dir,
      });
      const { filename } = JSON.parse(stdout) as { filename: string };
      const tarball = filename.startsWith('/') ? filename : join(destination, filename);
      const { stdout: manifest } = await run('tar', ['-xOzf', tarball, 'package/package.json']);
      return { name, tarball, manifest: JSON.parse(manifest) as Manifest };
    }),
  );
  return new Map(packed.map((entry) => [entry.name, entry]));
}

/** Runs `task` over `items`, at most `limit` at once (the checks are CPU-bound child processes). */
export async function inBatches<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let at = 0; at < items.length; at += limit) {
    results.push(...(await Promise.all(items.slice(at, at + limit).map(task))));
  }
  return results;
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The committed API reports, one per entry: one folder to review and to own. */
export const reportsDir = join(root, 'etc', 'api');
/** The reports as of the last release, which `pnpm api:release` refreshes. */
export const releasedDir = join(reportsDir, 'released');
/** Where `pnpm docs` writes the reference (gitignored: tooling/api/README.md says why). */
export const docsDir = join(root, 'docs', 'api');

/** One public entry of a published package: what API Extractor reports and documents. */
export interface ApiEntry {
  readonly packageName: string;
  readonly packageDir: string;
  /** The package version: the bump rule reads 0.x and 1.0+ differently. */
  readonly version: string;
  /** The `exports` key: `.` or `./driver`. */
  readonly subpath: string;
  /** Absolute path of the entry's declarations (`dist/**\/*.d.ts` after `turbo run build`). */
  readonly types: string;
  /** File name of its report, without `.api.md`: `core`, `core-driver`, `driver-pg`. */
  readonly reportName: string;
  /**
   * The package name in the reference. API Documenter renders one entry point per package, so an
   * entry other than `.` is documented as a package of its own (`@berth/core-driver`).
   */
  readonly docName: string;
}

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly exports?: Record<string, string | { readonly types?: string }>;
}

/**
 * Every entry with a `types` condition of every package under packages/ that is published, read
 * from the manifests: a new package or export is reported without editing a list.
 */
export function apiEntries(packagesDir = join(root, 'packages')): ApiEntry[] {
  const entries: ApiEntry[] = [];
  for (const folder of readdirSync(packagesDir).sort()) {
    const packageDir = join(packagesDir, folder);
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as Manifest;
    if (manifest.private === true) continue;
    const unscoped = manifest.name.replace(/^@[^/]+\//, '');
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const types = typeof target === 'string' ? undefined : target.types;
      if (types === undefined) continue;
      const suffix = subpath === '.' ? '' : `-${subpath.replace(/^\.\//, '').replaceAll('/', '-')}`;
      entries.push({
        packageName: manifest.name,
        packageDir,
        version: manifest.version,
        subpath,
        types: join(packageDir, types),
        reportName: `${unscoped}${suffix}`,
        docName: `${manifest.name}${suffix}`,
      });
    }
  }
  return entries;
}

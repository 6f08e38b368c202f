import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Bump = 'none' | 'patch' | 'minor' | 'major';

/** A pending changeset: what `pnpm changeset` wrote in .changeset/, before `changeset version`. */
export interface Changeset {
  readonly id: string;
  /** Each package it names, with its bump. */
  readonly releases: ReadonlyMap<string, Bump>;
  /** The summary's first line: what `changeset version` writes into the changelog entry's first line. */
  readonly firstLine: string;
}

const RELEASE = /^\s*(['"]?)([^'":\s]+)\1\s*:\s*(none|patch|minor|major)\s*$/;

/** The pending changesets of the repository `repo`, by file name (README.md is changesets' own note). */
export function readChangesets(repo: string): Changeset[] {
  const dir = join(repo, '.changeset');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .sort()
    .map((file) =>
      parseChangeset(file.slice(0, -'.md'.length), readFileSync(join(dir, file), 'utf8')),
    );
}

/** Reads one changeset file; a file changesets itself would refuse is refused here, naming it. */
export function parseChangeset(id: string, text: string): Changeset {
  const lines = text.split(/\r?\n/);
  const end = lines.indexOf('---', 1);
  if (lines[0] !== '---' || end === -1) {
    throw new Error(`.changeset/${id}.md has no --- front matter: rewrite it with pnpm changeset`);
  }
  const releases = new Map<string, Bump>();
  for (const line of lines.slice(1, end).filter((entry) => entry.trim() !== '')) {
    const release = RELEASE.exec(line);
    if (!release) {
      throw new Error(`.changeset/${id}.md: ${JSON.stringify(line)} is not "<package>: <bump>"`);
    }
    releases.set(release[2] as string, release[3] as Bump);
  }
  const firstLine =
    lines
      .slice(end + 1)
      .find((line) => line.trim() !== '')
      ?.trim() ?? '';
  return { id, releases, firstLine };
}

const ORDER: readonly Bump[] = ['none', 'patch', 'minor', 'major'];

/** The larger of two bumps. */
export const higherBump = <B extends Bump>(a: B, b: B): B =>
  ORDER.indexOf(b) > ORDER.indexOf(a) ? b : a;

/**
 * The version one fixed group moves to: `version` bumped once by the highest bump any changeset
 * asks of a member (so 0.0.0 with minors and patches is 0.1.0), or `version` itself when none does.
 */
export function nextVersion(
  version: string,
  changesets: readonly Changeset[],
  group: readonly string[],
): string {
  const bumps = changesets.flatMap((changeset) =>
    group.map((name) => changeset.releases.get(name) ?? 'none'),
  );
  const highest = bumps.reduce<Bump>(higherBump, 'none');
  if (!/^\d+\.\d+\.\d+$/.test(version)) {
    throw new Error(
      `${version} is not a release version (x.y.z): changesets' pre mode is not rehearsed`,
    );
  }
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  if (highest === 'major') return `${major + 1}.0.0`;
  if (highest === 'minor') return `${major}.${minor + 1}.0`;
  if (highest === 'patch') return `${major}.${minor}.${patch + 1}`;
  return version;
}

/** The part of a changelog under `## <version>`, up to the next version's heading. */
function section(changelog: string, version: string): string | undefined {
  const start = changelog.indexOf(`\n## ${version}\n`);
  if (start === -1) return undefined;
  const end = changelog.indexOf('\n## ', start + 1);
  return changelog.slice(start, end === -1 ? undefined : end);
}

/**
 * What the changelog `changeset version` wrote for `name` lacks: the `## <version>` section, or
 * there the first line of a changeset that names the package. None when it is complete.
 */
export function missingFromChangelog(
  changelog: string | undefined,
  name: string,
  version: string,
  changesets: readonly Changeset[],
): string[] {
  if (changelog === undefined) return [`${name} has no CHANGELOG.md`];
  const entries = section(changelog, version);
  if (entries === undefined) return [`${name}'s CHANGELOG.md has no "## ${version}" section`];
  return changesets
    .filter((changeset) => (changeset.releases.get(name) ?? 'none') !== 'none')
    .filter((changeset) => !entries.includes(changeset.firstLine))
    .map((changeset) => `${name}'s CHANGELOG.md does not name .changeset/${changeset.id}.md`);
}

import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readChangesets } from './changesets.js';
import { git } from './git.js';
import { type Manifest, publishedPackages } from './pack.js';

/** The tags `changeset publish` writes for a monorepo's packages: `<name>@<version>`. */
const RELEASE_TAGS = '@berth/*@*';

export interface ReleaseBase {
  /** A commit-ish git understands. */
  readonly ref: string;
  /** The same, for a person. */
  readonly label: string;
}

/**
 * Where the current release cycle began, once something was released: the newest release tag
 * HEAD descends from, else the first commit. A shallow clone hides both, so it is refused rather
 * than read as "nothing changed".
 */
export async function releaseBase(repo: string): Promise<ReleaseBase> {
  const shallow = await git(repo, 'rev-parse', '--is-shallow-repository').catch((error) => {
    throw new Error(`${repo} is not a git clone: the changeset check reads its history`, {
      cause: error,
    });
  });
  if (shallow.trim() === 'true') {
    throw new Error(
      'This clone is shallow, so the changeset check cannot see what changed since the last release: fetch the whole history (git fetch --unshallow --tags; in GitHub Actions, actions/checkout with fetch-depth: 0)',
    );
  }
  const tag = await git(repo, 'describe', '--tags', '--abbrev=0', `--match=${RELEASE_TAGS}`).then(
    (out) => out.trim(),
    () => '',
  );
  if (tag !== '') return { ref: tag, label: `the release tag ${tag}` };
  const first = (await git(repo, 'rev-list', '--max-parents=0', 'HEAD')).trim().split('\n').at(-1);
  if (first === undefined || first === '') throw new Error(`${repo} has no commit yet`);
  return { ref: first, label: `the first commit ${first.slice(0, 7)} (no release tag yet)` };
}

const split = (out: string): string[] => out.split('\0').filter((path) => path !== '');

/** Every path changed since `ref`: committed, staged, unstaged or untracked (and not ignored). */
async function changedSince(repo: string, ref: string): Promise<string[]> {
  const [tracked, untracked] = await Promise.all([
    git(repo, 'diff', '--name-only', '--no-renames', '-z', ref),
    git(repo, 'ls-files', '--others', '--exclude-standard', '-z'),
  ]);
  return [...new Set([...split(tracked), ...split(untracked)])];
}

/**
 * Whether `path` (from the repository root) is part of the package at `dir` as published: its
 * manifest, README, or under an entry of `files`. Tests, scripts and the changelog
 * `changeset version` writes are not, so changing them needs no changeset.
 */
function isShipped(path: string, dir: string, manifest: Manifest): boolean {
  if (!path.startsWith(`${dir}/`)) return false;
  const inside = path.slice(dir.length + 1);
  if (inside === 'package.json' || inside === 'README.md') return true;
  return (manifest.files ?? [])
    .filter((entry) => !entry.startsWith('!'))
    .map((entry) => entry.replace(/\/?\*.*$/, ''))
    .some((entry) => entry === '' || inside === entry || inside.startsWith(`${entry}/`));
}

/** The package's version at `ref`; a package that did not exist yet was unreleased (0.0.0). */
async function versionAt(repo: string, ref: string, dir: string): Promise<string> {
  const text = await git(repo, 'show', `${ref}:${dir}/package.json`).catch(() => undefined);
  return text === undefined ? '0.0.0' : ((JSON.parse(text) as Manifest).version ?? '0.0.0');
}

/**
 * One sentence per published package whose shipped files changed since the release base while no
 * pending changeset names it, each saying how to fix it; none when every change is announced. A
 * package whose version moved since the base was versioned by `changeset version`, which consumed
 * its changesets into its changelog, so it is announced too.
 */
export async function unannouncedChanges(repo: string): Promise<string[]> {
  const packages = publishedPackages(repo).map(({ dir, name }) => ({
    name,
    at: relative(repo, dir),
    manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest,
  }));
  const named = new Set(
    readChangesets(repo).flatMap((changeset) => [...changeset.releases.keys()]),
  );
  // Before the first release every package ships new, which needs no history to know: so a
  // clone of any depth can check it. From then on the release tag and the history since it do.
  const unreleased = packages.every(({ manifest }) => (manifest.version ?? '0.0.0') === '0.0.0');
  const base = unreleased ? undefined : await releaseBase(repo);
  const changed = base === undefined ? [] : await changedSince(repo, base.ref);
  const problems: string[] = [];
  for (const { name, at, manifest } of packages) {
    if (named.has(name)) continue;
    if (base === undefined) {
      problems.push(
        `${name} was never released and no pending changeset names it: run \`pnpm changeset\`, select ${name} and describe it for its users (RELEASING.md)`,
      );
      continue;
    }
    const shipped = changed.filter((path) => isShipped(path, at, manifest)).sort();
    if (shipped.length === 0) continue;
    if ((manifest.version ?? '0.0.0') !== (await versionAt(repo, base.ref, at))) continue;
    const files =
      shipped.length > 3
        ? `${shipped.slice(0, 3).join(', ')} and ${shipped.length - 3} more`
        : shipped.join(', ');
    problems.push(
      `${name} changed since ${base.label} (${files}) but no pending changeset names it: run \`pnpm changeset\`, select ${name} and describe the change for its users (RELEASING.md)`,
    );
  }
  return problems;
}

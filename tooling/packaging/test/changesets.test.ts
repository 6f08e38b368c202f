import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseBase, unannouncedChanges } from '../src/changeset-check.js';
import { readChangesets } from '../src/changesets.js';
import { commitAll, git, initRepo } from '../src/git.js';
import { type Manifest, publishedPackages, root } from '../src/pack.js';

// CI runs `pnpm test` on a clone of main, where the changesets since the last release are still
// pending: a public package whose shipped files changed must be named by one of them.
describe('the changesets of this repository', () => {
  it('name every public package whose shipped files changed since the last release', async () => {
    expect(await unannouncedChanges(root)).toEqual([]);
  });

  it('ask for no major while Berth is 0.x: a major would publish 1.0.0, so breaking changes are minor', () => {
    const core = join(root, 'packages', 'core', 'package.json');
    const { version } = JSON.parse(readFileSync(core, 'utf8')) as Manifest;
    expect(
      version,
      'past 0.x a major is a real one: drop this test and its RELEASING.md line',
    ).toMatch(/^0\./);
    const majors = readChangesets(root).filter((changeset) =>
      [...changeset.releases.values()].includes('major'),
    );
    expect(majors.map((changeset) => `.changeset/${changeset.id}.md`)).toEqual([]);
  });

  it('release every public package as one fixed group, and never version or tag a private one', () => {
    const config = JSON.parse(readFileSync(join(root, '.changeset', 'config.json'), 'utf8')) as {
      fixed: string[][];
      linked: string[][];
      privatePackages: unknown;
    };
    const names = publishedPackages().map(({ name }) => name);
    expect(config.fixed.map((group) => [...group].sort())).toEqual([names.sort()]);
    expect(config.linked).toEqual([]);
    expect(config.privatePackages).toEqual({ version: false, tag: false });
    const versions = new Set(
      publishedPackages().map(
        ({ dir }) =>
          (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest).version,
      ),
    );
    expect(versions.size).toBe(1);
  });
});

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'berth-changesets-'));
});
afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

/** Writes `files` (path → text) under `dir`. */
function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

const manifest = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name, version: '0.1.0', files: ['dist', 'src'], ...extra });

/**
 * A repository laid out as this one: a public package, a private one, and no changeset yet. At
 * `0.1.0` it was released (its release tag on the first commit); at `0.0.0` never.
 */
async function fixture(name: string, version = '0.1.0'): Promise<string> {
  const repo = join(scratch, name);
  write(repo, {
    'packages/lib/package.json': manifest('@berth/fixture-lib', { version }),
    'packages/lib/src/index.ts': 'export const one = 1;\n',
    'packages/lib/test/index.test.ts': '// a test\n',
    'packages/internal/package.json': manifest('@berth/fixture-internal', { private: true }),
    'packages/internal/src/index.ts': 'export const two = 2;\n',
    '.changeset/README.md': 'changesets\n',
  });
  await initRepo(repo, 'first');
  if (version !== '0.0.0') await git(repo, 'tag', `@berth/fixture-lib@${version}`);
  return repo;
}

const CHANGESET = "---\n'@berth/fixture-lib': minor\n---\n\nLib says two.\n";

describe('the changeset check, on a throwaway repository', () => {
  it('fails when a public package changes without a changeset, naming it and pnpm changeset', async () => {
    const repo = await fixture('unannounced');
    write(repo, { 'packages/lib/src/index.ts': 'export const one = 2;\n' });
    const [first] = await unannouncedChanges(repo);
    expect(first).toMatch(
      /^@berth\/fixture-lib changed since the release tag @berth\/fixture-lib@0\.1\.0/,
    );
    expect(first).toContain('(packages/lib/src/index.ts)');
    expect(first).toContain('run `pnpm changeset`, select @berth/fixture-lib');
    await commitAll(repo, 'committed, still without a changeset');
    expect(await unannouncedChanges(repo)).toEqual([first]);
  });

  it('passes a change a changeset names, a test-only change and a private package’s change', async () => {
    const repo = await fixture('announced');
    write(repo, {
      'packages/lib/test/index.test.ts': '// another test\n',
      'packages/internal/src/index.ts': 'export const two = 3;\n',
    });
    expect(await unannouncedChanges(repo)).toEqual([]);
    write(repo, {
      'packages/lib/src/index.ts': 'export const one = 2;\n',
      '.changeset/lib-two.md': CHANGESET,
    });
    expect(await unannouncedChanges(repo)).toEqual([]);
  });

  it('counts changes from the last release tag, and takes a package `changeset version` moved as announced', async () => {
    const repo = await fixture('released');
    write(repo, { 'packages/lib/src/index.ts': 'export const one = 2;\n' });
    write(repo, {
      'packages/lib/package.json': manifest('@berth/fixture-lib', { version: '0.2.0' }),
    });
    expect(await unannouncedChanges(repo)).toEqual([]);
    await commitAll(repo, 'Version packages');
    await git(repo, 'tag', '@berth/fixture-lib@0.2.0');
    expect(await releaseBase(repo)).toEqual({
      ref: '@berth/fixture-lib@0.2.0',
      label: 'the release tag @berth/fixture-lib@0.2.0',
    });
    expect(await unannouncedChanges(repo)).toEqual([]);
    write(repo, { 'packages/lib/README.md': '# lib\n' });
    expect(await unannouncedChanges(repo)).toEqual([
      expect.stringMatching(
        /^@berth\/fixture-lib changed since the release tag @berth\/fixture-lib@0\.2\.0 \(packages\/lib\/README\.md\)/,
      ),
    ]);
  });

  it('refuses a shallow clone, which hides the last release, saying to fetch the whole history', async () => {
    const repo = await fixture('deep');
    write(repo, { 'packages/lib/src/index.ts': 'export const one = 2;\n' });
    await commitAll(repo, 'second');
    const shallow = join(scratch, 'shallow');
    await git(scratch, 'clone', '--quiet', '--depth=1', `file://${repo}`, shallow);
    await expect(unannouncedChanges(shallow)).rejects.toThrow(/shallow.*fetch-depth: 0/);
  });

  it('before the first release asks a pending changeset of every public package, on a clone of any depth', async () => {
    const repo = await fixture('unreleased', '0.0.0');
    const never = [
      expect.stringMatching(
        /^@berth\/fixture-lib was never released and no pending changeset names it: run `pnpm changeset`/,
      ),
    ];
    expect(await unannouncedChanges(repo)).toEqual(never);
    const shallow = join(scratch, 'unreleased-shallow');
    await git(scratch, 'clone', '--quiet', '--depth=1', `file://${repo}`, shallow);
    expect(await unannouncedChanges(shallow)).toEqual(never);
    write(repo, { '.changeset/lib-two.md': CHANGESET });
    expect(await unannouncedChanges(repo)).toEqual([]);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { missingFromChangelog, nextVersion, parseChangeset } from '../src/changesets.js';
import {
  type Published,
  sourceEntryPoints,
  testFiles,
  unmappedSources,
  unresolvedRanges,
} from '../src/published.js';

// The rehearsal's checks, each shown to fail on what it is meant to catch: a check that cannot
// fail would pass every release.
const GROUP = ['@berth/a', '@berth/b'];
const changeset = (id: string, text: string) => parseChangeset(id, text);
const minorA = changeset('a-minor', "---\n'@berth/a': minor\n---\n\nA does more.\nDetails.\n");
const patchB = changeset('b-patch', '---\n"@berth/b": patch\n---\n\nB is fixed.\n');

describe('reading changesets', () => {
  it('reads quoted names, bumps and the summary’s first line, and an empty changeset', () => {
    expect([...minorA.releases]).toEqual([['@berth/a', 'minor']]);
    expect(minorA.firstLine).toBe('A does more.');
    expect(changeset('empty', '---\n---\n\nTests only.\n')).toEqual({
      id: 'empty',
      releases: new Map(),
      firstLine: 'Tests only.',
    });
  });

  it('refuses a malformed changeset, naming its file', () => {
    expect(() => changeset('bad', "---\n'@berth/a' minor\n---\n")).toThrow(/\.changeset\/bad\.md/);
    expect(() => changeset('none', 'A summary only.\n')).toThrow(
      /none\.md has no --- front matter/,
    );
  });
});

describe('the version a fixed group moves to', () => {
  it('bumps once by the highest pending bump: 0.0.0 with a minor and a patch is 0.1.0', () => {
    expect(nextVersion('0.0.0', [minorA, patchB], GROUP)).toBe('0.1.0');
    expect(nextVersion('0.1.0', [patchB], GROUP)).toBe('0.1.1');
    expect(nextVersion('0.1.3', [changeset('m', "---\n'@berth/b': major\n---\n")], GROUP)).toBe(
      '1.0.0',
    );
  });

  it('stays put with no pending changeset, or one naming only packages outside the group', () => {
    expect(nextVersion('0.1.0', [], GROUP)).toBe('0.1.0');
    expect(nextVersion('0.1.0', [changeset('x', "---\n'other': minor\n---\n")], GROUP)).toBe(
      '0.1.0',
    );
  });
});

describe('what a changelog must hold', () => {
  const changelog = '# @berth/a\n\n## 0.2.0\n\n- abc1234: Later.\n\n## 0.1.0\n\n- A does more.\n';

  it('passes a version section naming every changeset that lists the package', () => {
    expect(missingFromChangelog(changelog, '@berth/a', '0.1.0', [minorA, patchB])).toEqual([]);
  });

  it('names a missing file, a missing section, and a changeset written under another version', () => {
    expect(missingFromChangelog(undefined, '@berth/a', '0.1.0', [])).toEqual([
      '@berth/a has no CHANGELOG.md',
    ]);
    expect(missingFromChangelog(changelog, '@berth/a', '0.3.0', [])).toEqual([
      '@berth/a\'s CHANGELOG.md has no "## 0.3.0" section',
    ]);
    expect(missingFromChangelog(changelog, '@berth/a', '0.2.0', [minorA])).toEqual([
      "@berth/a's CHANGELOG.md does not name .changeset/a-minor.md",
    ]);
  });
});

describe('what a published manifest may hold', () => {
  it('flags a workspace: or catalog: range in any dependency field, not a real range', () => {
    const manifest = {
      name: '@berth/a',
      dependencies: { '@berth/core': 'workspace:^', ok: '^1.0.0' },
      devDependencies: { vitest: 'catalog:' },
      peerDependencies: { '@berth/core': '^0.1.0' },
    };
    expect(unresolvedRanges(manifest)).toEqual([
      'dependencies.@berth/core: workspace:^',
      'devDependencies.vitest: catalog:',
    ]);
  });

  it('flags main, types, bin and exports into src/, but not the repo-private @berth/source condition', () => {
    const manifest = {
      name: '@berth/a',
      main: './dist/index.js',
      types: 'src/index.ts',
      bin: { a: './src/bin.ts' },
      exports: {
        '.': {
          '@berth/source': './src/index.ts',
          types: './dist/index.d.ts',
          default: './dist/index.js',
        },
        './raw': { default: './src/raw.js' },
      },
    };
    expect(sourceEntryPoints(manifest)).toEqual([
      'types: src/index.ts',
      'bin.a: ./src/bin.ts',
      'exports["./raw"]["default"]: ./src/raw.js',
    ]);
  });
});

describe('what a published tarball may hold', () => {
  it('flags a src/ file no shipped map names, and every test file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-checks-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const files: Record<string, string> = {
      'dist/index.js.map': JSON.stringify({ sources: ['../src/index.ts'] }),
      'dist/deep/util.d.ts.map': JSON.stringify({
        sourceRoot: '../../src/',
        sources: ['deep/util.ts'],
      }),
      'src/index.ts': '',
      'src/deep/util.ts': '',
      'src/NOTES.md': '',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const published: Published = {
      name: '@berth/a',
      version: '0.1.0',
      integrity: '',
      manifest: { name: '@berth/a' },
      files: Object.keys(files),
      dir,
    };
    expect(unmappedSources(published)).toEqual(['src/NOTES.md']);
    expect(
      testFiles([
        'test/a.ts',
        'src/__tests__/b.ts',
        'src/a.test.ts',
        'dist/a.test.d.ts',
        'dist/a.spec.js.map',
        'src/testing.ts',
        'dist/contest.js',
      ]),
    ).toEqual([
      'test/a.ts',
      'src/__tests__/b.ts',
      'src/a.test.ts',
      'dist/a.test.d.ts',
      'dist/a.spec.js.map',
    ]);
  });
});

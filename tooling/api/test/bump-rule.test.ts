import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readChangesets } from '@berth/packaging/changesets';
import { afterAll, describe, expect, it } from 'vitest';
import { type Bump, missingBumps, pendingBumps } from '../src/bump.js';
import { diffReports } from '../src/report-diff.js';

// Small reports in API Extractor's shape; the rule is in tooling/api/README.md.
const report = (body: string): string =>
  `## API Report File for "@berth/fixture"\n\n\`\`\`ts\n\nimport { Driver } from '@berth/core';\n\n${body}\n\n// (No @packageDocumentation comment for this package)\n\n\`\`\`\n`;

const RELEASED = report(`// @public
export function createFixture(options?: FixtureOptions): Driver;

// @public
export interface FixtureOptions {
    readonly url?: string;
}

// @public (undocumented)
export const DEFAULT_URL = "fixture://";`);

const edit = (from: string, to: string): string => {
  if (!RELEASED.includes(from)) throw new Error(`fixture lacks ${from}`);
  return RELEASED.replace(from, to);
};

const kinds = (after: string) => Object.fromEntries(diffReports(RELEASED, after));

/** What the check says for the fixture package at `version` with `pending` changesets. */
const check = (after: string, version: string, pending: Record<string, Bump> = {}) =>
  missingBumps(
    [
      {
        packageName: '@berth/fixture',
        version,
        reportName: 'fixture',
        released: RELEASED,
        current: after,
      },
    ],
    new Map(Object.entries(pending)),
  );

const REMOVED = edit('// @public (undocumented)\nexport const DEFAULT_URL = "fixture://";', '');
const CHANGED = edit('readonly url?: string;', 'readonly url?: URL;');
const REQUIRED_MEMBER = edit(
  'readonly url?: string;',
  'readonly url?: string;\n    readonly name: string;',
);
const OPTIONAL_MEMBER = edit(
  'readonly url?: string;',
  'readonly url?: string;\n    readonly name?: string;',
);
const ADDED = `${RELEASED.replace('\n\n// (No', '\n\n// @public\nexport function closeFixture(): void;\n\n// (No')}`;
const DOC_ONLY = edit('// @public (undocumented)', '// @public');
const DEPRECATED = edit('// @public (undocumented)', '// @public @deprecated (undocumented)');

describe('how a report differs from its released one', () => {
  it('the same report shows no difference', () => {
    expect(kinds(RELEASED)).toEqual({});
  });

  it('a declaration gone is removed; a changed type, or a required member added, is changed', () => {
    expect(kinds(REMOVED)).toEqual({ removed: ['DEFAULT_URL'] });
    expect(kinds(CHANGED)).toEqual({ changed: ['FixtureOptions'] });
    expect(kinds(REQUIRED_MEMBER)).toEqual({ changed: ['FixtureOptions'] });
    const internal = edit('// @public\nexport function', '// @internal\nexport function');
    expect(kinds(internal)).toEqual({ changed: ['createFixture'] });
  });

  it('a new export, or an optional member added to an interface, is an addition', () => {
    expect(kinds(ADDED)).toEqual({ added: ['closeFixture'] });
    expect(kinds(OPTIONAL_MEMBER)).toEqual({ added: ['FixtureOptions'] });
  });

  it('a doc comment written (the "(undocumented)" mark gone) is doc only; a deprecation is an addition', () => {
    expect(kinds(DOC_ONLY)).toEqual({ doc: ['DEFAULT_URL'] });
    expect(kinds(DEPRECATED)).toEqual({ added: ['DEFAULT_URL'] });
  });

  it('a type used but not exported becoming exported is an addition; an export unexported is a removal', () => {
    const hidden = edit('export interface FixtureOptions', 'interface FixtureOptions');
    expect(Object.fromEntries(diffReports(hidden, RELEASED))).toEqual({
      added: ['FixtureOptions'],
    });
    expect(kinds(hidden)).toEqual({ removed: ['FixtureOptions'] });
  });
});

describe('the bump the pending changesets must give', () => {
  it('a removed or changed declaration needs minor while the version is 0.x', () => {
    for (const after of [REMOVED, CHANGED]) {
      expect(check(after, '0.4.1', { '@berth/fixture': 'patch' })).toHaveLength(1);
      expect(check(after, '0.4.1', { '@berth/fixture': 'minor' })).toEqual([]);
    }
  });

  it('a removed or changed declaration needs major from 1.0', () => {
    for (const after of [REMOVED, CHANGED]) {
      expect(check(after, '1.0.0', { '@berth/fixture': 'minor' })).toHaveLength(1);
      expect(check(after, '1.0.0', { '@berth/fixture': 'major' })).toEqual([]);
    }
  });

  it('only additions need minor, at 0.x and from 1.0', () => {
    for (const version of ['0.4.1', '2.3.0']) {
      expect(check(ADDED, version, { '@berth/fixture': 'patch' })).toHaveLength(1);
      expect(check(ADDED, version, { '@berth/fixture': 'minor' })).toEqual([]);
    }
  });

  it('a doc-comment-only difference needs patch, and fails with no changeset at all', () => {
    expect(check(DOC_ONLY, '1.2.0')).toHaveLength(1);
    expect(check(DOC_ONLY, '1.2.0', { '@berth/fixture': 'patch' })).toEqual([]);
  });

  it('no difference needs no changeset', () => {
    expect(check(RELEASED, '1.2.0')).toEqual([]);
  });

  it('an entry never released counts as all new: minor', () => {
    const unreleased = (pending: Record<string, Bump>) =>
      missingBumps(
        [
          {
            packageName: '@berth/fixture',
            version: '0.0.0',
            reportName: 'fixture',
            released: undefined,
            current: RELEASED,
          },
        ],
        new Map(Object.entries(pending)),
      );
    expect(unreleased({ '@berth/fixture': 'patch' })).toHaveLength(1);
    expect(unreleased({ '@berth/fixture': 'minor' })).toEqual([]);
  });

  it('the failure names the package, the kind of difference, the bump and pnpm changeset', () => {
    const [message] = check(REMOVED, '1.0.0', { '@berth/fixture': 'minor' });
    expect(message).toContain('@berth/fixture (1.0.0) needs a major changeset');
    expect(message).toContain('fixture: removed DEFAULT_URL');
    expect(message).toContain('give it minor');
    expect(message).toContain('run pnpm changeset and choose major for @berth/fixture');
  });
});

describe('pending changesets', () => {
  const repo = mkdtempSync(join(tmpdir(), 'berth-changesets-'));
  const dir = join(repo, '.changeset');
  mkdirSync(dir);
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('each package gets the highest bump any pending changeset names; README.md is no changeset', () => {
    writeFileSync(
      join(dir, 'a.md'),
      '---\n\'@berth/core\': patch\n"@berth/driver-pg": minor\n---\n\nText.\n',
    );
    writeFileSync(join(dir, 'b.md'), '---\n"@berth/core": minor\n---\n\nText: major\n');
    writeFileSync(join(dir, 'README.md'), '---\n"@berth/cli": major\n---\n');
    writeFileSync(join(dir, 'config.json'), '{}');
    expect(Object.fromEntries(pendingBumps(readChangesets(repo)))).toEqual({
      '@berth/core': 'minor',
      '@berth/driver-pg': 'minor',
    });
  });
});

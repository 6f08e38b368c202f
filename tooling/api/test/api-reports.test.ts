import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readChangesets } from '@berth/packaging/changesets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingBumps, pendingBumps } from '../src/bump.js';
import { writeDocs } from '../src/docs.js';
import { apiEntries, releasedDir, reportsDir, root } from '../src/entries.js';
import { type Extraction, extract } from '../src/extract.js';
import { readReports } from '../src/reports.js';

// The one file that runs API Extractor (in-process, one TypeScript program for every entry): the
// reports and the reference below all read this run.
const scratch = mkdtempSync(join(tmpdir(), 'berth-api-'));
let found: Extraction[];

beforeAll(() => {
  found = extract(apiEntries(), scratch);
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Where two texts first differ, as `line N: committed … / now …`. */
function firstDifference(committed: string, now: string): string {
  const a = committed.split('\n');
  const b = now.split('\n');
  const at = a.findIndex((line, index) => line !== b[index]);
  const line = at < 0 ? a.length : at;
  return `line ${line + 1}: committed ${JSON.stringify(a[line] ?? '(end)')}, now ${JSON.stringify(b[line] ?? '(end)')}`;
}

describe('API reports (etc/api)', () => {
  it('API Extractor reads every entry with no error and no finding left out of the reports', () => {
    expect(found.flatMap((extraction) => extraction.problems)).toEqual([]);
  });

  it('every published entry has its committed report, and every committed report an entry', () => {
    const names = found.map(({ entry }) => entry.reportName).sort();
    expect(names).toContain('core-driver');
    expect([...readReports(reportsDir).keys()].sort(), 'run pnpm api:update').toEqual(names);
    expect([...readReports(releasedDir).keys()].sort(), 'run pnpm api:release').toEqual(names);
  });

  it('each committed report is what API Extractor reports for the declarations built now', () => {
    const committed = readReports(reportsDir);
    const stale = found
      .filter(({ entry, report }) => committed.get(entry.reportName) !== report)
      .map(({ entry, report }) => {
        const before = committed.get(entry.reportName);
        const where = before === undefined ? 'missing' : firstDifference(before, report);
        return `etc/api/${entry.reportName}.api.md (${where})`;
      });
    expect(
      stale,
      'the public API changed: run pnpm api:update, review the diff and commit it',
    ).toEqual([]);
  });

  it('an API that differs from its released report has a pending changeset of the bump it needs', () => {
    const released = readReports(releasedDir);
    const comparisons = found.map(({ entry, report }) => ({
      packageName: entry.packageName,
      version: entry.version,
      reportName: entry.reportName,
      released: released.get(entry.reportName),
      current: report,
    }));
    expect(missingBumps(comparisons, pendingBumps(readChangesets(root)))).toEqual([]);
  });
});

describe('pnpm docs (the reference API Documenter writes from the same run)', () => {
  const out = join(scratch, 'docs');

  it('writes an index, a page per package or entry naming its import path, and a page per member', async () => {
    await writeDocs(
      found.map(({ entry }) => entry),
      join(scratch, 'models'),
      out,
    );
    const index = readFileSync(join(out, 'index.md'), 'utf8');
    for (const { entry } of found) {
      const page = entry.docName.replace(/^@[^/]+\//, '');
      const importPath =
        entry.subpath === '.'
          ? entry.packageName
          : `${entry.packageName}/${entry.subpath.slice(2)}`;
      expect(index).toContain(`[${importPath}](./${page}.md)`);
      const text = readFileSync(join(out, `${page}.md`), 'utf8');
      // A member's page is `<page>.<member>.md`, linked from its package's page.
      const member = new RegExp(`\\]\\(\\./(${page}\\.[\\w.-]+\\.md)\\)`).exec(text)?.[1];
      expect({ page, member: member !== undefined && existsSync(join(out, member)) }).toEqual({
        page,
        member: true,
      });
    }
    expect(readFileSync(join(out, 'core-driver.md'), 'utf8')).toContain(
      '## @berth/core/driver entry of @berth/core',
    );
  }, 60_000);
});

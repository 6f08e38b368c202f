import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiEntries } from '../src/entries.js';
import { readReports, writeReports } from '../src/reports.js';

const scratch = mkdtempSync(join(tmpdir(), 'berth-api-entries-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function writePackage(folder: string, manifest: object): void {
  mkdirSync(join(scratch, 'packages', folder), { recursive: true });
  writeFileSync(join(scratch, 'packages', folder, 'package.json'), JSON.stringify(manifest));
}

describe('the entries reported, read from the manifests', () => {
  it('every types entry of every published package, each subpath with its own report', () => {
    const typed = (types: string) => ({ types, default: types.replace('.d.ts', '.js') });
    writePackage('lib', {
      name: '@berth/lib',
      version: '1.2.0',
      exports: {
        '.': typed('./dist/index.d.ts'),
        './sub/path': typed('./dist/sub.d.ts'),
        './package.json': './package.json',
      },
    });
    writePackage('tool', {
      name: '@berth/tool',
      version: '0.1.0',
      private: true,
      exports: { '.': typed('./dist/index.d.ts') },
    });
    writePackage('bin', {
      name: '@berth/bin',
      version: '0.1.0',
      exports: { './package.json': './package.json' },
    });
    const found = apiEntries(join(scratch, 'packages')).map(
      ({ packageName, subpath, reportName, docName, version }) => ({
        packageName,
        subpath,
        reportName,
        docName,
        version,
      }),
    );
    expect(found).toEqual([
      {
        packageName: '@berth/lib',
        subpath: '.',
        reportName: 'lib',
        docName: '@berth/lib',
        version: '1.2.0',
      },
      {
        packageName: '@berth/lib',
        subpath: './sub/path',
        reportName: 'lib-sub-path',
        docName: '@berth/lib-sub-path',
        version: '1.2.0',
      },
    ]);
  });

  it("the repository's: core and core/driver, the four drivers, conformance and the dashboard; not the cli, a bin with no library entry", () => {
    expect(apiEntries().map((entry) => entry.reportName)).toEqual([
      'conformance',
      'core',
      'core-driver',
      'dashboard',
      'driver-memory',
      'driver-nats',
      'driver-pg',
      'driver-redis',
    ]);
  });
});

describe('writing reports into a folder', () => {
  it('writes the changed ones, removes one whose entry is gone, and leaves subfolders alone', () => {
    const dir = join(scratch, 'etc');
    mkdirSync(join(dir, 'released'), { recursive: true });
    writeFileSync(join(dir, 'same.api.md'), 'same');
    writeFileSync(join(dir, 'gone.api.md'), 'gone');
    writeFileSync(join(dir, 'released', 'gone.api.md'), 'gone');
    const changed = writeReports(
      dir,
      new Map([
        ['same', 'same'],
        ['new', 'new'],
      ]),
    );
    expect(changed.sort()).toEqual(['gone', 'new']);
    expect(Object.fromEntries(readReports(dir))).toEqual({ same: 'same', new: 'new' });
    expect(readFileSync(join(dir, 'released', 'gone.api.md'), 'utf8')).toBe('gone');
    expect(existsSync(join(dir, 'gone.api.md'))).toBe(false);
  });
});

import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { ApiEntry } from './entries.js';

const run = promisify(execFile);

/** The API Documenter command line: its supported interface (the library exports no documenter). */
function documenterBin(): string {
  const manifestPath = createRequire(import.meta.url).resolve(
    '@microsoft/api-documenter/package.json',
  );
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    bin: Record<string, string>;
  };
  return join(dirname(manifestPath), manifest.bin['api-documenter'] as string);
}

/**
 * Writes the reference for the doc models in `modelsDir` into `outDir` (emptied first): an
 * `index.md`, one page per package or entry, one per member.
 */
export async function writeDocs(
  entries: readonly ApiEntry[],
  modelsDir: string,
  outDir: string,
): Promise<void> {
  try {
    await run(process.execPath, [documenterBin(), 'markdown', '-i', modelsDir, '-o', outDir]);
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`api-documenter failed:\n${stdout}${stderr}`);
  }
  for (const entry of entries) {
    if (entry.docName !== entry.packageName) retitle(entry, outDir);
  }
}

/** Pages of an entry documented as a package of its own say what to import: `@berth/core/driver`. */
function retitle(entry: ApiEntry, outDir: string): void {
  const pageName = entry.docName.replace(/^@[^/]+\//, '');
  const importPath = `${entry.packageName}/${entry.subpath.replace(/^\.\//, '')}`;
  const pages = readdirSync(outDir).filter(
    (file) => file === 'index.md' || file === `${pageName}.md` || file.startsWith(`${pageName}.`),
  );
  for (const page of pages) {
    const path = join(outDir, page);
    const text = readFileSync(path, 'utf8')
      .replaceAll(`## ${pageName} package`, `## ${importPath} entry of ${entry.packageName}`)
      .replaceAll(`[${entry.docName}]`, `[${importPath}]`);
    writeFileSync(path, text);
  }
}

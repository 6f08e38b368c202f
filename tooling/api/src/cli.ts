import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDocs } from './docs.js';
import { apiEntries, docsDir, releasedDir, reportsDir } from './entries.js';
import { type Extraction, extract } from './extract.js';
import { writeReports } from './reports.js';

// pnpm api:update | pnpm docs | pnpm api:release (each root script builds the packages first).
const commands: Record<string, (found: readonly Extraction[], scratch: string) => Promise<void>> = {
  /** Rewrites etc/api/*.api.md from the declarations as built now. */
  update: async (found) => {
    const changed = writeReports(reportsDir, toMap(found));
    console.log(
      changed.length === 0 ? 'api: reports unchanged' : `api: rewrote ${changed.join(', ')}`,
    );
  },
  /** Writes the reference into docs/api. */
  docs: async (found, scratch) => {
    await writeDocs(
      found.map(({ entry }) => entry),
      join(scratch, 'models'),
      docsDir,
    );
    console.log(`api: wrote the reference of ${found.length} entries into ${docsDir}`);
  },
  /** At a release: the reports as released become the base the changeset check compares with. */
  release: async (found) => {
    const reports = toMap(found);
    writeReports(reportsDir, reports);
    const changed = writeReports(releasedDir, reports);
    console.log(
      `api: released snapshots ${changed.length === 0 ? 'unchanged' : `of ${changed.join(', ')} refreshed`}`,
    );
  },
};

const toMap = (found: readonly Extraction[]) =>
  new Map(found.map(({ entry, report }) => [entry.reportName, report]));

async function main(name: string | undefined): Promise<void> {
  const command = name === undefined ? undefined : commands[name];
  if (command === undefined) {
    throw new Error(`usage: tsx tooling/api/src/cli.ts ${Object.keys(commands).join('|')}`);
  }
  const scratch = mkdtempSync(join(tmpdir(), 'berth-api-'));
  try {
    const found = extract(apiEntries(), scratch);
    const problems = found.flatMap((extraction) => extraction.problems);
    if (problems.length > 0) throw new Error(`API Extractor reported:\n${problems.join('\n')}`);
    await command(found, scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

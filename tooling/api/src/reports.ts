import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SUFFIX = '.api.md';

/** The reports in `dir` by name (`core-driver`), without the ones in its subfolders. */
export function readReports(dir: string): Map<string, string> {
  const reports = new Map<string, string>();
  if (!existsSync(dir)) return reports;
  for (const file of readdirSync(dir)) {
    if (file.endsWith(SUFFIX))
      reports.set(file.slice(0, -SUFFIX.length), readFileSync(join(dir, file), 'utf8'));
  }
  return reports;
}

/**
 * Makes `dir` hold exactly `reports`: each written, a report of an entry that is gone removed.
 * Answers the names whose file changed.
 */
export function writeReports(dir: string, reports: ReadonlyMap<string, string>): string[] {
  mkdirSync(dir, { recursive: true });
  const before = readReports(dir);
  const changed: string[] = [];
  for (const [name, text] of reports) {
    if (before.get(name) === text) continue;
    writeFileSync(join(dir, `${name}${SUFFIX}`), text);
    changed.push(name);
  }
  for (const name of before.keys()) {
    if (reports.has(name)) continue;
    rmSync(join(dir, `${name}${SUFFIX}`));
    changed.push(name);
  }
  return changed;
}

import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, cleanEnv } from './berth.js';

/** Each `<!-- berth:KEY -->` (or `<!-- KEY -->` when `prefix` is '') sh block of a README, as shown. */
export function shBlocks(readme: URL, prefix = 'berth:'): Map<string, string> {
  const text = readFileSync(readme, 'utf8');
  const pattern = new RegExp(`<!-- ${prefix}(\\S+) -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``, 'g');
  return new Map([...text.matchAll(pattern)].map((match) => [match[1] ?? '', match[2] ?? '']));
}

/** A directory holding a `berth` that runs this package's built binary: PATH as after an install. */
export function berthOnPath(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'berth-path-'));
  writeFileSync(join(dir, 'berth'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(dir, 'berth'), 0o755);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs `block` with bash (`-euo pipefail`: any failing line fails it) and answers its stdout. */
export function runBlock(
  block: string,
  pathDir: string,
  env: Readonly<Record<string, string>>,
): Promise<string> {
  const full = cleanEnv({ ...env, PATH: `${pathDir}:${process.env.PATH ?? ''}` });
  return new Promise((resolve, reject) => {
    execFile(
      'bash',
      ['-euo', 'pipefail', '-c', block],
      { env: full, timeout: 30_000 },
      (error, out, err) => {
        if (error === null) resolve(out);
        else reject(new Error(`the block exited ${String(error.code)}:\n${block}\n${err}`));
      },
    );
  });
}

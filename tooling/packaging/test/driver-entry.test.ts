import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { root } from '../src/pack.js';

/** Every `.ts` file under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const DRIVERS = readdirSync(join(root, 'packages')).filter((name) => name.startsWith('driver-'));

it('the drivers reach core only through @berth/core/driver, the driver author’s entry', () => {
  expect(DRIVERS.length).toBeGreaterThanOrEqual(4);
  const throughAppEntry = DRIVERS.flatMap((driver) =>
    sources(join(root, 'packages', driver, 'src'))
      .filter((file) => /from '@berth\/core'/.test(readFileSync(file, 'utf8')))
      .map((file) => file.slice(root.length)),
  );
  expect(throughAppEntry).toEqual([]);
});

import { writeFileSync } from 'node:fs';
import { GENERATED_PATH, generatedModule, generatedUrl } from './lua/module.js';

// Writes src/lua/generated.ts from the .lua sources: `pnpm --filter @berth/driver-redis generate`.
// A problem in the sources (a helper used but not included, an include never used, a syntax
// error...) is printed with its file and line, and nothing is written.
try {
  const text = generatedModule();
  writeFileSync(generatedUrl(), text);
  const count = text.match(/^export const /gm)?.length ?? 0;
  console.log(`wrote ${GENERATED_PATH}: ${count} scripts`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}

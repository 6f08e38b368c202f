import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from '../../tooling/vitest.preset.ts';

// The runtime's tests run on the memory driver. It depends on core, so core cannot list it as a
// package dependency (a workspace cycle turbo refuses); tests reach its source by alias instead.
const memoryDriver = fileURLToPath(new URL('../driver-memory/src/index.ts', import.meta.url));

export default mergeConfig(
  vitestPreset,
  defineConfig({
    resolve: { alias: { '@berth/driver-memory': memoryDriver } },
    // No test file changes shared state: one module graph per worker saves re-importing core.
    test: { name: 'core', isolate: false },
  }),
);

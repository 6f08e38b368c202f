import { defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from '../../tooling/vitest.preset.ts';

// Three test files at a time: they wait on the server far more than they use a core (the kit
// alone runs in three files).
export default mergeConfig(
  vitestPreset,
  defineConfig({
    test: {
      name: 'driver-pg',
      fileParallelism: true,
      // No test file changes shared state: one module graph per worker saves re-importing the driver.
      isolate: false,
      maxWorkers: 3,
      testTimeout: 30_000,
      // Its own group in a root run: projects with different worker counts cannot share one.
      sequence: { groupOrder: 1 },
    },
  }),
);

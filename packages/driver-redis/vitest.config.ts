import { defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from '../../tooling/vitest.preset.ts';

// Two files at a time: each case has a key prefix of its own on the shared server, and the fault
// file restarts a private one.
export default mergeConfig(
  vitestPreset,
  defineConfig({
    test: {
      name: 'driver-redis',
      fileParallelism: true,
      // No test file changes shared state: one module graph per worker saves re-importing the driver.
      isolate: false,
      maxWorkers: 3,
      // In the root run's first group with every project of two workers.
      sequence: { groupOrder: 0 },
    },
  }),
);

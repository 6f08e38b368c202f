import { defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from '../../tooling/vitest.preset.ts';

// Most cases run the CLI's `run` in the test process (support/berth.ts); the round trips, the
// README blocks, signals and pipes run the BUILT binary as a subprocess, which the global setup
// builds (a turbo cache hit after `pnpm test`'s build).
export default mergeConfig(
  vitestPreset,
  defineConfig({
    test: {
      name: 'cli',
      globalSetup: ['./test/support/build.ts'],
      fileParallelism: true,
      // No test file changes shared state: one module graph per worker saves re-importing the drivers.
      isolate: false,
      maxWorkers: 3,
      // A case runs several processes one after another; this bounds a hang, it asserts no speed.
      testTimeout: 60_000,
      // In the root run's first group with every project of two workers.
      sequence: { groupOrder: 0 },
    },
  }),
);

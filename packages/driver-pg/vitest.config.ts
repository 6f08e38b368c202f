import { defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from '../../tooling/vitest.preset.ts';

// Two cores: two test files at a time, each talking to the one local Postgres.
export default mergeConfig(
  vitestPreset,
  defineConfig({
    test: {
      name: 'driver-pg',
      fileParallelism: true,
      maxWorkers: 2,
      testTimeout: 30_000,
      // Its own group in a root run: projects with different worker counts cannot share one.
      sequence: { groupOrder: 1 },
    },
  }),
);

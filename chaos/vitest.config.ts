import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from '../tooling/vitest.preset.ts';

export const SENTINEL_TESTS = [
  'test/redis-sentinel.test.ts',
  'test/redis-sentinel-partition.test.ts',
];

// One file per backend, two at a time: each run's servers and worker processes wait far more than
// they compute (a run's answers count jobs, never time; a slow machine only settles later).
export default mergeConfig(
  vitestPreset,
  defineConfig({
    test: {
      name: 'chaos',
      // Not (yet) part of pnpm test: run by vitest.sentinel.config.ts.
      exclude: [...configDefaults.exclude, ...SENTINEL_TESTS],
      // Child processes start from the builds: built first (a turbo cache hit after pnpm test's).
      globalSetup: ['./test/support/build.ts'],
      fileParallelism: true,
      maxWorkers: 2,
      testTimeout: 120_000,
      hookTimeout: 60_000,
      sequence: { groupOrder: 2 },
    },
  }),
);

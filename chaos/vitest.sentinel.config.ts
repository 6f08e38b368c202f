import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from '../tooling/vitest.preset.ts';
import { SENTINEL_TESTS } from './vitest.config.ts';

// The Redis Sentinel ci runs (a failover, a partitioned primary), outside pnpm test for now:
// `pnpm exec vitest run --config chaos/vitest.sentinel.config.ts`. Settings as the chaos project's.
export default mergeConfig(
  vitestPreset,
  defineConfig({
    root: fileURLToPath(new URL('.', import.meta.url)),
    test: {
      name: 'chaos-sentinel',
      include: SENTINEL_TESTS,
      // Child processes start from the builds: built first (a turbo cache hit after pnpm test's).
      globalSetup: ['./test/support/build.ts'],
      fileParallelism: true,
      maxWorkers: 2,
      testTimeout: 120_000,
      hookTimeout: 60_000,
    },
  }),
);

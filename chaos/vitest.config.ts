import { defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from '../tooling/vitest.preset.ts';

// One file, one backend at a time: the suite starts its own servers and worker processes, and
// two cores cannot hold two such runs at once.
export default mergeConfig(
  vitestPreset,
  defineConfig({
    test: {
      name: 'chaos',
      fileParallelism: false,
      testTimeout: 120_000,
      hookTimeout: 60_000,
      sequence: { groupOrder: 4 },
    },
  }),
);

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
      maxWorkers: 2,
      // Its own group in a root run, shared with the other driver of the same worker count.
      sequence: { groupOrder: 2 },
    },
  }),
);

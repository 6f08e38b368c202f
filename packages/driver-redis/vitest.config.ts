import { defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from '../../tooling/vitest.preset.ts';

// One Redis server serves every file; the fault file restarts it, so files run one at a time.
export default mergeConfig(
  vitestPreset,
  defineConfig({
    test: { name: 'driver-redis', fileParallelism: false, sequence: { groupOrder: 2 } },
  }),
);

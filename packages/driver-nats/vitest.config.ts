import { defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from '../../tooling/vitest.preset.ts';

// Files run one at a time: the suites share the one local server and the fault file starts its own.
export default mergeConfig(
  vitestPreset,
  defineConfig({
    test: { name: 'driver-nats', fileParallelism: false, sequence: { groupOrder: 2 } },
  }),
);

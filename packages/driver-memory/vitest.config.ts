import { defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from '../../tooling/vitest.preset.ts';

// No test file changes shared state: one module graph per worker saves re-importing the driver.
export default mergeConfig(
  vitestPreset,
  defineConfig({ test: { name: 'driver-memory', isolate: false } }),
);

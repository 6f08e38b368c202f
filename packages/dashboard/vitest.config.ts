import { defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from '../../tooling/vitest.preset.ts';

export default mergeConfig(
  vitestPreset,
  defineConfig({
    test: {
      name: 'dashboard',
      // The page is served from dist/ui: built here when a bare `vitest run` finds it missing.
      globalSetup: ['./test/support/build-ui.ts'],
      testTimeout: 60_000,
    },
  }),
);

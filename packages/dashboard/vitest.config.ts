import { defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from '../../tooling/vitest.preset.ts';

export default mergeConfig(
  vitestPreset,
  defineConfig({
    test: {
      name: 'dashboard',
      // The page is served from dist/ui: built here when a bare `vitest run` finds it missing.
      // One Chromium for the run, which the browser files connect to (chromium-server.ts).
      globalSetup: ['./test/support/build-ui.ts', './test/support/chromium-server.ts'],
      testTimeout: 60_000,
      // One module graph per worker: its 33 files each imported the dashboard, the drivers and
      // playwright again (import 57 s of 104 CPU-s; 7.6 s without). No file mocks or stubs modules.
      isolate: false,
    },
  }),
);

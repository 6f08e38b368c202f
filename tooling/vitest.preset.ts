import { defineConfig } from 'vitest/config';

/** Shared vitest settings: tests run on source through the `source` export condition. */
export const vitestPreset = defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});

import { defineConfig } from 'vitest/config';

/** Shared vitest settings: tests run on source through the repo-private `@berth/source` export condition (never set by an app). */
export const vitestPreset = defineConfig({
  resolve: { conditions: ['@berth/source'] },
  ssr: { resolve: { conditions: ['@berth/source'] } },
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});

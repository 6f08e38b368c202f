import { defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from './tooling/vitest.preset.ts';

export default mergeConfig(
  vitestPreset,
  defineConfig({
    test: {
      projects: ['packages/*', 'examples/*', 'chaos', 'tooling/packaging'],
    },
  }),
);

import { defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from './tooling/vitest.preset.ts';

export default mergeConfig(
  vitestPreset,
  defineConfig({
    test: {
      // Three files at a time in every project that does not say (vitest's own default on two cores
      // is one): most files wait on servers, processes or a browser, not on a core.
      maxWorkers: 3,
      projects: ['packages/*', 'examples/*', 'chaos', 'tooling/packaging', 'tooling/api'],
    },
  }),
);

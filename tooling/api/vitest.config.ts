import { defineConfig, mergeConfig } from 'vitest/config';
import { vitestPreset } from '../vitest.preset.ts';

export default mergeConfig(vitestPreset, defineConfig({ test: { name: 'api' } }));

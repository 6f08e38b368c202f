import type { KitGroup } from '../kit.js';

export const runtimeGroup: KitGroup = { name: 'runtime', cases: [] };

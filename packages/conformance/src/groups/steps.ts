import type { KitGroup } from '../kit.js';

export const stepsGroup: KitGroup = { name: 'steps', cases: [] };

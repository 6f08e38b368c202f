import type { KitGroup } from '../kit.js';

export const settleGroup: KitGroup = { name: 'settle', cases: [] };

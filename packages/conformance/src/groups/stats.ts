import type { KitGroup } from '../kit.js';

export const statsGroup: KitGroup = { name: 'stats', cases: [] };

import type { KitGroup } from '../kit.js';

export const goldenGroup: KitGroup = { name: 'golden', cases: [] };

import type { KitGroup } from '../kit.js';

export const wakeGroup: KitGroup = { name: 'wake', cases: [] };

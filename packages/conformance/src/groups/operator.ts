import type { KitGroup } from '../kit.js';

export const operatorGroup: KitGroup = { name: 'operator', cases: [] };

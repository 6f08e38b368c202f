import type { KitGroup } from '../kit.js';

export const listGroup: KitGroup = { name: 'list', cases: [] };

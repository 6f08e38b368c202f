import type { KitGroup } from '../kit.js';

export const enqueueGroup: KitGroup = { name: 'enqueue', cases: [] };

import type { KitGroup } from '../kit.js';

export const requeueGroup: KitGroup = { name: 'requeue', cases: [] };

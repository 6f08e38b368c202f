import type { KitGroup } from '../kit.js';

export const claimGroup: KitGroup = { name: 'claim', cases: [] };

import type { KitGroup } from '../kit.js';

export const tenancyGroup: KitGroup = { name: 'tenancy', cases: [] };

import type { KitGroup } from '../kit.js';

export const leasesGroup: KitGroup = { name: 'leases', cases: [] };

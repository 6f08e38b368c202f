import type { KitGroup } from '../kit.js';

export const eventsGroup: KitGroup = { name: 'events', cases: [] };

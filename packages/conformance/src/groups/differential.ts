import type { KitGroup, KitOptions } from '../kit.js';

export function differentialGroup(_options: KitOptions): KitGroup {
  return { name: 'differential', cases: [] };
}

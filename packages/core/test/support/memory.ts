import { createMemoryDriver } from '@berth/driver-memory';
import type { Driver, ManualClock } from '../../src/index.js';
import { createManualClock } from '../../src/index.js';

/** A fresh memory driver on a manual clock starting at 2026-01-01T00:00:00Z. */
export function memoryOnManualClock(): { driver: Driver; clock: ManualClock } {
  const clock = createManualClock(Date.UTC(2026, 0, 1));
  return { driver: createMemoryDriver({ clock }), clock };
}

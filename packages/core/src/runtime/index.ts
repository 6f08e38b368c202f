// The runtime's public surface. Each part appends its own export lines here.
export type { ScheduleTimeout } from './timers.js';
export { sleepFor, timeoutsFor } from './timers.js';

export type { MemoryDriverOptions } from './memory-driver.js';
export { createMemoryDriver } from './memory-driver.js';

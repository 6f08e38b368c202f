export type { RedisDriverOptions } from './redis-driver.js';
export { createRedisDriver, DEFAULT_REDIS_URL } from './redis-driver.js';

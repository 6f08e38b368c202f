/** The scratch-app runs' cleanup: the same as every test's. */
export { dropPgSchema, dropRedisPrefix } from '@berth/test-servers';

import type { MarkStore } from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { ADVANCE_MARK_LUA } from './lua/generated.js';
import { defineScript } from './scripts.js';

const ADVANCE_MARK = defineScript('advance-mark', ADVANCE_MARK_LUA);

export function createMarkStore(context: RedisContext): MarkStore {
  return {
    async get(name) {
      const value = await context.redis.hget(context.keys.marks(), name);
      return value === null ? undefined : Number(value);
    },
    async advance(name, value) {
      return (await context.run(ADVANCE_MARK, context.clock.now(), [name, value])) === 1;
    },
  };
}

import type { PauseBackend } from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { PAUSE_LUA, RESUME_LUA } from './lua/generated.js';
import { defineScript } from './scripts.js';

const PAUSE = defineScript('pause', PAUSE_LUA);
const RESUME = defineScript('resume', RESUME_LUA);

/** Paused queues: one field each of the `paused` hash, which the claim script reads. */
export function createPauseStore(context: RedisContext): PauseBackend {
  return {
    async pause(queue) {
      const at = await context.run(PAUSE, context.clock.now(), [queue]);
      return { queue, paused: true, pausedAt: Number(at) };
    },
    async resume(queue) {
      await context.run(RESUME, context.clock.now(), [queue]);
      return { queue, paused: false };
    },
    async list() {
      const held = await context.redis.hgetall(context.keys.paused());
      return Object.keys(held)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        .map((queue) => ({ queue, paused: true, pausedAt: Number(held[queue]) }));
    },
  };
}

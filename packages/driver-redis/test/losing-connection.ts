import type { Redis } from 'ioredis';

/**
 * An app connection whose next `lose` script calls run on the server but lose their answer, as
 * a command timeout does: the script ran, the caller hears only an error.
 */
export function losingConnection(redis: Redis) {
  const state = { lose: 0, lost: 0 };
  const proxy = new Proxy(redis, {
    get(target, property, receiver) {
      if (property === 'evalsha' || property === 'eval') {
        return async (...args: unknown[]) => {
          const method = target[property] as (...a: unknown[]) => Promise<unknown>;
          const reply = await method.apply(target, args);
          if (state.lose > 0) {
            state.lose -= 1;
            state.lost += 1;
            throw new Error('Command timed out');
          }
          return reply;
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { proxy, state };
}

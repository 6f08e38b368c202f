import type { Clock, DriverHooks } from '@berth/core/driver';
import type { Cluster, Redis } from 'ioredis';
import type { Keys } from './keys.js';
import { runScript, type Script, type ScriptArg } from './scripts.js';

/** What every part of the backend shares: the connection, the key names, the clock, the seams. */
export interface RedisContext {
  /** A single server or a cluster: every key of a driver sits in one slot. */
  readonly redis: Redis | Cluster;
  readonly keys: Keys;
  readonly clock: Clock;
  readonly hooks: DriverHooks;
  /**
   * The lifecycle events kept (the `lifecycleRetention` option): the last ARGV of every script
   * that writes one (src/lua/include/lifecycle.lua), which trims to it.
   */
  readonly lifecycleRetention: number;
  /** Runs `script` with `now` as ARGV[1] and `args` after it. */
  run(script: Script, now: number, args: readonly ScriptArg[]): Promise<unknown>;
}

/** Every script goes through `run`: given one (confirmed.ts, failover.ts), it is used as is. */
export function createContext(
  input: Omit<RedisContext, 'run'>,
  run?: RedisContext['run'],
): RedisContext {
  return {
    ...input,
    run: run ?? ((script, now, args) => runScript(input.redis, input.keys.base, script, now, args)),
  };
}

import type { Cluster, Redis } from 'ioredis';
import { confirmedRun, type Durability, type RunScript } from './confirmed.js';
import { resendOnReadOnly } from './failover.js';
import { runScript } from './scripts.js';

/**
 * How every script of a driver is sent: with `durability`, each write under a WAIT; on a
 * connection the driver owns, a script a replica refused is sent again after the reconnect.
 */
export function scriptRunner(input: {
  readonly redis: Redis | Cluster;
  readonly base: string;
  readonly durability: Durability | undefined;
  /** The driver's own connection, which reconnects on READONLY; undefined for the app's. */
  readonly owned: Redis | undefined;
  readonly timeout: number;
}): RunScript {
  const { redis, base, durability, owned, timeout } = input;
  const run: RunScript =
    durability === undefined
      ? (script, now, args) => runScript(redis, base, script, now, args)
      : confirmedRun(redis, base, durability);
  return owned === undefined ? run : resendOnReadOnly(owned, run, timeout);
}

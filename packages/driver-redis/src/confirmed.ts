import { BerthError, configInvalid } from '@berth/core/driver';
import type { Cluster, Redis } from 'ioredis';
import { isNoScript, runScript, type Script, type ScriptArg, scriptArgv } from './scripts.js';

/** How many replicas must hold a write before the driver answers for it, and how long to wait. */
export interface Durability {
  readonly replicas: number;
  readonly timeoutMs: number;
}

export type RunScript = (
  script: Script,
  now: number,
  args: readonly ScriptArg[],
) => Promise<unknown>;

const EXAMPLE =
  'createRedisDriver({ sentinels, name, durability: { replicas: 1, timeoutMs: 1_000 } })';

/**
 * Refuses, at construction, a durability option of the wrong shape. `timeoutMs` must stay under
 * the command timeout: WAIT blocks that long, and a timed-out command counts as a dead server.
 */
export function screenDurability(value: unknown, commandTimeoutMs: number): Durability | undefined {
  if (value === undefined) return undefined;
  const { replicas, timeoutMs } = (value ?? {}) as { replicas?: unknown; timeoutMs?: unknown };
  if (value === null || typeof value !== 'object') {
    throw configInvalid({
      option: 'durability',
      reason: `is ${String(value)}; it must be { replicas, timeoutMs }`,
      allowed:
        'takes { replicas, timeoutMs }: how many replicas must confirm each write, within how long',
      example: EXAMPLE,
    });
  }
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 1) {
    throw configInvalid({
      option: 'durability.replicas',
      reason: `is ${String(replicas)}; it must be an integer of at least 1`,
      allowed: 'takes how many replicas must confirm each write, an integer of at least 1',
      example: EXAMPLE,
    });
  }
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    throw configInvalid({
      option: 'durability.timeoutMs',
      reason: `is ${String(timeoutMs)}; it must be a positive integer of ms`,
      allowed: 'takes how long WAIT waits for the replicas, a positive integer of ms',
      example: EXAMPLE,
    });
  }
  if (timeoutMs >= commandTimeoutMs) {
    throw configInvalid({
      option: 'durability.timeoutMs',
      reason: `is ${timeoutMs}, not under commandTimeoutMs (${commandTimeoutMs}): WAIT would be cut off`,
      allowed: 'takes a positive integer of ms under commandTimeoutMs (default 10 000)',
      example: EXAMPLE,
    });
  }
  return { replicas, timeoutMs };
}

/** A write the primary made that too few replicas confirmed in time. */
export class UnconfirmedWrite extends Error {
  constructor(
    readonly durability: Durability,
    readonly confirmed: number,
  ) {
    super(`WAIT confirmed ${confirmed} of ${durability.replicas} replicas`);
    this.name = 'UnconfirmedWrite';
  }
}

/** The DRIVER_UNAVAILABLE an unconfirmed write answers. */
export function unconfirmedError(driver: string, operation: string, error: UnconfirmedWrite) {
  const { durability, confirmed } = error;
  return new BerthError({
    code: 'DRIVER_UNAVAILABLE',
    detail:
      `the ${driver} driver could not ${operation}: the primary made the write, but WAIT confirmed it ` +
      `on ${confirmed} of the ${durability.replicas} replicas durability asks for within ` +
      `${durability.timeoutMs} ms; the write may or may not survive a failover`,
    fix:
      'check the replicas are up and in sync (INFO replication on the primary); a retry with the same ' +
      'id or idempotencyKey finds the write if it survived, or lower durability.replicas',
    meta: { driver, operation, replicas: { wanted: durability.replicas, confirmed } },
    cause: error,
  });
}

interface Pending {
  readonly script: Script;
  readonly argv: ScriptArg[];
  readonly resolve: (reply: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Runs the scripts that write with a WAIT after them, in the same pipeline (one round trip).
 * Group commit: the writes made while a group is out go together in the next one, under one
 * WAIT. Before the WAIT a write to the `confirm` key moves this connection's replication offset
 * to the primary's: WAIT counts replicas up to the offset of the connection's last write, so
 * this makes it cover every write the primary took before it, from any connection — also the
 * original of a deduplicated retry (which writes nothing) made on a newer connection. (Redis
 * 7.0.15 already waits so for a connection that never wrote; the write keeps it so everywhere.)
 */
export function confirmedRun(
  redis: Redis | Cluster,
  base: string,
  durability: Durability,
): RunScript {
  const confirmKey = `${base}confirm`;
  let waiting: Pending[] = [];
  let sending = false;

  const send = async (group: readonly Pending[], bySource: boolean): Promise<void> => {
    const pipeline = redis.pipeline();
    for (const { script, argv } of group) {
      if (bySource) pipeline.eval(script.lua, 1, base, ...argv);
      else pipeline.evalsha(script.sha, 1, base, ...argv);
    }
    // Its value means nothing: a SET is replicated even when it changes nothing.
    pipeline.set(confirmKey, '1');
    pipeline.wait(durability.replicas, durability.timeoutMs);
    let results: [Error | null, unknown][];
    try {
      results = (await pipeline.exec()) ?? [];
    } catch (error) {
      for (const item of group) item.reject(error);
      return;
    }
    const [waitError, confirmed] = results[group.length + 1] ?? [new Error('WAIT went unanswered')];
    const unloaded: Pending[] = [];
    group.forEach((item, index) => {
      const [error, reply] = results[index] ?? [new Error('the script went unanswered')];
      if (error !== null && !bySource && isNoScript(error)) unloaded.push(item);
      else if (error !== null) item.reject(error);
      else if (waitError !== null) item.reject(waitError);
      else if (Number(confirmed) < durability.replicas) {
        item.reject(new UnconfirmedWrite(durability, Number(confirmed)));
      } else item.resolve(reply);
    });
    // A server that forgot the scripts (a restart, a failover to a replica that never ran them).
    if (unloaded.length > 0) await send(unloaded, true);
  };

  const flush = () => {
    if (sending || waiting.length === 0) return;
    const group = waiting;
    waiting = [];
    sending = true;
    send(group, false)
      .catch((error: unknown) => {
        // Settled items ignore this; the rest learn why nothing was sent.
        for (const item of group) item.reject(error);
      })
      .finally(() => {
        sending = false;
        flush();
      });
  };

  return (script, now, args) => {
    if (script.readOnly) return runScript(redis, base, script, now, args);
    return new Promise((resolve, reject) => {
      waiting.push({ script, argv: scriptArgv(now, args), resolve, reject });
      // The calls of this turn of the event loop join one group.
      if (waiting.length === 1) setImmediate(flush);
    });
  };
}

import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import type { LuaScriptName } from './lua/generated.js';

/**
 * One Lua script as Redis receives it: `lua` is its text in the generated module
 * (src/lua/scripts/<name>.lua with the helpers it includes), `sha` what EVALSHA names it by.
 */
export interface Script {
  readonly name: LuaScriptName;
  readonly lua: string;
  readonly sha: string;
  /** Writes nothing: no `durability` WAIT follows it. */
  readonly readOnly: boolean;
}

export function defineScript(
  name: LuaScriptName,
  lua: string,
  options: { readOnly?: true } = {},
): Script {
  const sha = createHash('sha1').update(lua).digest('hex');
  return { name, lua, sha, readOnly: options.readOnly === true };
}

/** A Buffer for bytes that need not be UTF-8 (a schedule's list position). */
export type ScriptArg = string | number | Buffer;

/** A script's ARGV: `now` first, then its own arguments. */
export const scriptArgv = (now: number, args: readonly ScriptArg[]): ScriptArg[] => [now, ...args];

export const isNoScript = (error: unknown): boolean =>
  error instanceof Error && error.message.startsWith('NOSCRIPT');

/**
 * Runs a script by its sha. The server forgets scripts on a restart or SCRIPT FLUSH: NOSCRIPT
 * then sends the source once with EVAL, which loads it again for the next EVALSHA.
 * `now` is always ARGV[1]: the one clock reading the change uses.
 */
export async function runScript(
  redis: Redis | Cluster,
  base: string,
  script: Script,
  now: number,
  args: readonly ScriptArg[],
): Promise<unknown> {
  const argv = scriptArgv(now, args);
  try {
    return await redis.evalsha(script.sha, 1, base, ...argv);
  } catch (error) {
    if (!isNoScript(error)) throw error;
    return redis.eval(script.lua, 1, base, ...argv);
  }
}

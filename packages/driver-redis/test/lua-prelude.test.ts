import { describe, expect, it } from 'vitest';
import { LUA_KEYS } from '../src/keys.js';
import { LUA_COMMON } from '../src/lua/common.js';
import { preludeFor, splitPrelude } from '../src/lua/prelude.js';

const PRELUDE = splitPrelude(`
-- the base
local B = KEYS[1]
local function k_job(id) return B .. 'job:' .. id end
local function k_seq() return B .. 'seq' end
-- reads a job
local function loadJob(id)
  return redis.call('HGETALL', k_job(id))
end
local A, Z = 1, 26
local unused = { 'loadJob' }`);

describe('a script carries only the shared Lua it uses', () => {
  it('keeps what the body names and what that needs, in prelude order, with its comments', () => {
    expect(preludeFor(PRELUDE, 'return loadJob(ARGV[2])')).toBe(
      [
        '-- the base',
        'local B = KEYS[1]',
        "local function k_job(id) return B .. 'job:' .. id end",
        '-- reads a job',
        'local function loadJob(id)',
        "  return redis.call('HGETALL', k_job(id))",
        'end',
      ].join('\n'),
    );
  });

  it('keeps a statement defining several names when the body names one of them', () => {
    expect(preludeFor(PRELUDE, 'return Z')).toBe('local A, Z = 1, 26');
  });

  it('keeps nothing for a body that names nothing shared, nor for a name only in a comment', () => {
    expect(preludeFor(PRELUDE, '-- k_seq is not called\nreturn 1')).toBe('');
  });

  it('refuses shared Lua with a top-level statement that is not a local definition', () => {
    expect(() => splitPrelude('local x = 1\nredis.setresp(3)')).toThrow(/redis.setresp/);
    expect(() => splitPrelude('x = 1')).toThrow(/outside any local definition: x = 1/);
  });

  it('cuts the real shared Lua into statements that each define something', () => {
    const { statements } = splitPrelude(`${LUA_KEYS}\n${LUA_COMMON}`);
    expect(statements.length).toBeGreaterThan(60);
    for (const statement of statements) expect(statement.defines.length).toBeGreaterThan(0);
    // Each name is defined once: a later definition would shadow an earlier one unseen.
    const names = statements.flatMap((statement) => statement.defines);
    expect(new Set(names).size).toBe(names.length);
  });
});

import { describe, expect, it } from 'vitest';
import { lintLua } from '../scripts/lua/lint.js';
import { buildFromDisk, exportName, GENERATED_PATH } from '../scripts/lua/module.js';
import * as generated from '../src/lua/generated.js';

// Each problem is named by the .lua file and line it came from; a script that is not what the
// sources make (a stale module: see lua-generated.test.ts) by its line in the generated text.
const built = new Map(buildFromDisk().map((script) => [exportName(script.name), script]));
const scripts = Object.entries(generated as Record<string, unknown>).filter(
  (entry): entry is [string, string] => typeof entry[1] === 'string',
);

const problemsOf = (exported: string, lua: string): string[] => {
  const script = built.get(exported);
  const origins = script?.lua === lua ? script.lines : undefined;
  return lintLua(lua).map((problem) => {
    const origin = origins?.[problem.line - 1];
    const where =
      origin === undefined
        ? `${GENERATED_PATH} ${exported} line ${problem.line}`
        : `${origin.file}:${origin.line}`;
    return `${where}:${problem.column}: ${problem.message}`;
  });
};

describe('every script the driver sends passes the Lua lint', () => {
  it('there is one per file of src/lua/scripts', () => {
    expect(scripts.map(([exported]) => exported).sort()).toEqual([...built.keys()].sort());
  });

  it.each(scripts)('%s', (exported, lua) => {
    expect(problemsOf(exported, lua)).toEqual([]);
  });
});

describe('the Lua lint refuses', () => {
  it('a syntax error, at its line', () => {
    expect(lintLua('local a = 1\nlocal b = = 2\nreturn a .. b')).toEqual([
      { line: 2, column: 11, message: "syntax: <expression> expected near '='" },
    ]);
  });

  it('a global Redis does not provide: a typo, or a local read before its definition', () => {
    const lua = [
      "local ids = redis.call('SMEMBERS', KEYZ[1])",
      'local function first() return later end',
      'local later = 1',
      'return { ids, first(), later }',
    ].join('\n');
    expect(lintLua(lua).map((p) => [p.line, p.message.split(',')[0]])).toEqual([
      [1, 'reads the global KEYZ'],
      [2, 'reads the global later'],
    ]);
  });

  it('an assignment to a global, even one Redis provides', () => {
    const lua = 'count = 1\nfunction helper() return count end\nredis = nil\nreturn helper()';
    expect(lintLua(lua).map((p) => [p.line, p.message.split(':')[0]])).toEqual([
      [1, 'assigns the global count'],
      [2, 'assigns the global helper'],
      [3, 'assigns the global redis'],
    ]);
  });

  it('a local function nothing calls, nested or not', () => {
    const lua = [
      'local function unused() return 1 end',
      'local spare = function() return 2 end',
      'local function used()',
      '  local function inner() return 3 end',
      '  return 4',
      'end',
      'return used()',
    ].join('\n');
    expect(lintLua(lua).map((p) => [p.line, p.message])).toEqual([
      [1, 'the local function unused is never used'],
      [2, 'the local function spare is never used'],
      [4, 'the local function inner is never used'],
    ]);
  });

  it('nothing in Lua that scopes its names right', () => {
    const lua = [
      'local next = 0',
      'local out = {}',
      'for i, v in ipairs(ARGV) do out[i] = tonumber(v) + next end',
      'local n = 0',
      'repeat local step = 1; n = n + step until step > 0 and n > 2',
      'local function count(t) local k = 0; for _ in pairs(t) do k = k + 1 end; return k end',
      'function out:size() return count(self) end',
      'return { cjson.encode(out), out:size(), string.rep("x", n), math.max(1, #KEYS) }',
    ].join('\n');
    expect(lintLua(lua)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { type BuiltScript, buildScripts } from '../scripts/lua/build.js';
import { LuaBuildError } from '../scripts/lua/problems.js';

const KEYS = [
  'local B = KEYS[1]',
  "local function k_job(a1) return B .. 'job:' .. a1 end",
  "local function k_seq() return B .. 'seq' end",
].join('\n');

const HEAD =
  '-- KEYS[1] base     the prefix\n-- ARGV[1] now      the clock\n-- ARGV[2] id       a job';
const directives = (includes: readonly string[]) =>
  includes.map((name) => `\n--- @include "${name}"`).join('');
/** A script file: its header (with its includes), an empty line, its Lua. */
const script = (includes: readonly string[], lua: string) =>
  `-- a script\n${HEAD}${directives(includes)}\n\n${lua}\n`;
/** An include file: its header (with its includes), an empty line, its statements. */
const helpers = (includes: readonly string[], lua: string) =>
  `-- a helper group${directives(includes)}\n\n${lua}\n`;

const ROWS = helpers(
  ['keys'],
  [
    '-- reads a job',
    'local function loadJob(id)',
    "  return redis.call('HGETALL', k_job(id))",
    'end',
    'local A, Z = 1, 26',
  ].join('\n'),
);

function build(
  scripts: Record<string, string>,
  includes: Record<string, string> = { rows: ROWS },
  fills: Record<string, string> = {},
): BuiltScript[] {
  const files = (dir: string, texts: Record<string, string>) =>
    new Map(
      Object.entries(texts).map(([name, text]) => [name, { path: `${dir}/${name}.lua`, text }]),
    );
  return buildScripts({
    scripts: files('scripts', scripts),
    includes: files('include', includes),
    made: new Map([['keys', { path: 'keys', text: KEYS }]]),
    fills,
  });
}

const luaOf = (scripts: Record<string, string>, name: string, includes?: Record<string, string>) =>
  build(scripts, includes).find((built) => built.name === name)?.lua;

function problems(...args: Parameters<typeof build>): readonly string[] {
  try {
    build(...args);
    return [];
  } catch (error) {
    if (error instanceof LuaBuildError) return error.problems;
    throw error;
  }
}

const USES_Z = script(['rows'], 'return Z');

describe('a script carries only the included Lua it uses', () => {
  it('keeps what the script names and what that needs, includes first, with their comments', () => {
    const main = script(['rows'], 'return loadJob(ARGV[2])');
    expect(luaOf({ main, z: USES_Z }, 'main')).toBe(
      [
        'local B = KEYS[1]',
        "local function k_job(a1) return B .. 'job:' .. a1 end",
        '-- reads a job',
        'local function loadJob(id)',
        "  return redis.call('HGETALL', k_job(id))",
        'end',
        '',
        'return loadJob(ARGV[2])',
        '',
      ].join('\n'),
    );
  });

  it('keeps a statement defining several names when the script names one of them', () => {
    const main = script(['rows'], 'return loadJob(ARGV[2])');
    expect(luaOf({ main, z: USES_Z }, 'z')).toBe('local A, Z = 1, 26\n\n\nreturn Z\n');
  });

  it('keeps nothing for a name only in a comment or a string, and the include is then refused', () => {
    const bare = script([], "-- loadJob is not called\nreturn 'loadJob'");
    expect(luaOf({ bare }, 'bare', {})).toBe("\n-- loadJob is not called\nreturn 'loadJob'\n");
    const idle = script(['keys'], "return 'k_job'");
    expect(problems({ idle }, {})).toEqual([
      'scripts/idle.lua:5: script "idle" includes "keys" but uses nothing it defines',
    ]);
  });

  it('fills each {{NAME}} from TypeScript, and {{script:name}} with that script’s Lua', () => {
    const inner = script([], 'return {{LIMIT}} + n');
    const outer = script(
      [],
      'local n = 1\nlocal function inner()\n{{script:inner}}\nend\nreturn inner()',
    );
    const built = build({ inner, outer }, {}, { LIMIT: '16' });
    expect(built.map((s) => s.lua)).toEqual([
      '\nreturn 16 + n\n',
      '\nlocal n = 1\nlocal function inner()\n\nreturn 16 + n\n\nend\nreturn inner()\n',
    ]);
    expect(built[1]?.lines[4]).toEqual({
      text: 'return 16 + n',
      file: 'scripts/inner.lua',
      line: 6,
    });
  });
});

describe('the generator refuses, naming the file and line', () => {
  it('a helper a script uses without including it, and an include that supplies nothing', () => {
    const main = script(['keys'], 'local id = ARGV[2]\nreturn loadJob(id)');
    expect(problems({ main, z: USES_Z })).toEqual([
      'scripts/main.lua:8: script "main" uses loadJob of "rows", which it does not include',
      'scripts/main.lua:5: script "main" includes "keys" but uses nothing it defines',
      'include/rows.lua:5: loadJob: no script uses it',
    ]);
  });

  it('the same in an include file, and an include that does not exist', () => {
    const rows = helpers(
      ['nowhere'],
      "local function loadJob(id) return redis.call('GET', k_job(id)) end",
    );
    expect(problems({ main: script(['rows'], 'return loadJob(ARGV[2])') }, { rows })).toEqual([
      'include/rows.lua:4: "rows" uses k_job of "keys", which it does not include',
      'include/rows.lua:2: "rows" includes "nowhere": no such include',
    ]);
  });

  it('a helper no script uses', () => {
    expect(problems({ main: script(['rows'], 'return loadJob(ARGV[2])') })).toEqual([
      'include/rows.lua:8: A, Z: no script uses it',
    ]);
  });

  it('a top-level line of an include that is not a local definition', () => {
    const bad = (lua: string) =>
      problems({ z: USES_Z }, { rows: helpers([], `local Z = 1\n${lua}`) });
    expect(bad('redis.setresp(3)')).toEqual([
      'include/rows.lua:4: a top-level line outside any local definition: redis.setresp(3)',
    ]);
    expect(bad('x = 1')).toEqual([
      'include/rows.lua:4: a top-level line outside any local definition: x = 1',
    ]);
  });

  it('includes that form a cycle', () => {
    const a = helpers(['b'], 'local function fa() return fb() end');
    const b = helpers(['a'], 'local function fb() return fa() end');
    expect(problems({ main: script(['a'], 'return fa()') }, { a, b })).toEqual([
      'include/b.lua:2: includes form a cycle: a -> b -> a',
    ]);
  });

  it('one name from two includes of a script (one would hide the other)', () => {
    const a = helpers([], 'local X = 1\nlocal function fa() return X end');
    const b = helpers([], 'local X = 2\nlocal function fb() return X end');
    expect(problems({ main: script(['a', 'b'], 'return fa() + fb()') }, { a, b })).toEqual([
      'scripts/main.lua:1: gets X from both "a" and "b"',
    ]);
  });

  it('a placeholder with no fill, and a fill nothing uses', () => {
    const main = script([], 'return {{LIMT}}');
    expect(problems({ main }, {}, { LIMIT: '16' })).toEqual([
      'scripts/main.lua:6: {{LIMT}} is not a fill (scripts/lua/fills.ts)',
      'scripts/lua/fills.ts: {{LIMIT}}: no source uses it',
    ]);
  });

  it('a header without KEYS[1] or with ARGV out of order, and an ARGV the header does not list', () => {
    const main = '-- a script\n-- ARGV[2] id  a job\n\nreturn ARGV[3]\n';
    expect(problems({ main }, {})).toEqual([
      'scripts/main.lua:1: the header lists no KEYS[1] (every script gets the key prefix as KEYS[1])',
      'scripts/main.lua:1: the header must list ARGV[1], ARGV[2], ... in order, one `-- ARGV[i] name meaning` line each',
      'scripts/main.lua:4: reads ARGV[3], which the header does not list',
    ]);
  });

  it('a syntax error', () => {
    expect(problems({ main: script([], 'return = 1') }, {})).toEqual([
      "scripts/main.lua:6: syntax: unexpected symbol '=' near '1'",
    ]);
  });
});

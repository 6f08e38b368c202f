import { analyzeLua, LuaSyntaxError } from './scope.js';

/** The globals a Redis 7 script may read: its arguments, the libraries Redis loads, Lua's base. */
export const REDIS_GLOBALS: ReadonlySet<string> = new Set([
  'redis',
  'KEYS',
  'ARGV',
  'cjson',
  'cmsgpack',
  'bit',
  'struct',
  'math',
  'string',
  'table',
  'tonumber',
  'tostring',
  'type',
  'pairs',
  'ipairs',
  'next',
  'select',
  'unpack',
  'error',
  'pcall',
  'assert',
  'setmetatable',
  'getmetatable',
  'rawget',
  'rawset',
]);

export interface LintProblem {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/**
 * What Redis would refuse or a reader would trip on in one script: a syntax error; a global
 * Redis does not provide (a typo, a helper not included, a local used before its definition);
 * an assignment to a global (Redis refuses to create one); a local function nothing calls.
 */
export function lintLua(text: string): LintProblem[] {
  let analysis: ReturnType<typeof analyzeLua>;
  try {
    analysis = analyzeLua(text);
  } catch (error) {
    if (!(error instanceof LuaSyntaxError)) throw error;
    return [{ line: error.line, column: error.column, message: `syntax: ${error.message}` }];
  }
  const problems: LintProblem[] = [];
  // A global assigned is reported there, not again where it is read.
  const reported = new Set(analysis.globalWrites.map((place) => place.name));
  for (const place of analysis.free) {
    if (analysis.globalWrites.includes(place)) {
      const message = `assigns the global ${place.name}: Redis refuses new globals (declare it local)`;
      problems.push({ ...place, message });
    } else if (!REDIS_GLOBALS.has(place.name) && !reported.has(place.name)) {
      reported.add(place.name);
      const message = `reads the global ${place.name}, which Redis does not provide (a helper not included, or used before its local?)`;
      problems.push({ ...place, message });
    }
  }
  for (const place of analysis.unusedFunctions) {
    problems.push({ ...place, message: `the local function ${place.name} is never used` });
  }
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}

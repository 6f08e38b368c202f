/**
 * The shared Lua a script needs and nothing more. Every script used to carry all of the key
 * builders and helpers (~370 lines), and Redis runs a script's whole chunk on every call: making
 * ~80 closures and tables cost a single enqueue more server time than its own commands did.
 *
 * The shared Lua is a sequence of top-level `local` statements (a function, a constant, a table),
 * each starting at column 0 with its continuation lines indented (but a closing `end` or `}`); a
 * comment at column 0 belongs to the statement below it. Anything else at column 0 is refused.
 * A statement is kept when the script's body names it, directly or through another kept
 * statement, and kept ones stay in their order, so every local is defined before the statements
 * that use it, as in the whole prelude.
 */

interface Statement {
  readonly text: string;
  readonly defines: readonly string[];
  readonly names: ReadonlySet<string>;
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;

/** Identifiers a piece of Lua mentions, outside comments (strings count: over-keeping is safe). */
const namesIn = (lua: string): Set<string> =>
  new Set(lua.replace(/--[^\n]*/g, '').match(IDENTIFIER) ?? []);

function definedBy(head: string): string[] {
  const fn = /^local function ([A-Za-z_][A-Za-z0-9_]*)\s*\(/.exec(head);
  if (fn?.[1] !== undefined) return [fn[1]];
  const vars = /^local ([A-Za-z_][A-Za-z0-9_]*(?:\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*=/.exec(head);
  if (vars?.[1] !== undefined) return vars[1].split(',').map((name) => name.trim());
  throw new Error(`shared Lua: a top-level line that is not a local definition: ${head}`);
}

/** The shared Lua cut into its statements, and the statements defining each name. */
export interface Prelude {
  readonly statements: readonly Statement[];
  readonly definers: ReadonlyMap<string, readonly Statement[]>;
}

/** The prelude cut into its top-level statements, each with what it defines and names. */
export function splitPrelude(prelude: string): Prelude {
  const statements: Statement[] = [];
  let pending: string[] = [];
  let current: string[] | undefined;
  const close = () => {
    if (current === undefined) return;
    const head = current.find((line) => line.startsWith('local ')) ?? '';
    const text = current.join('\n');
    statements.push({ text, defines: definedBy(head), names: namesIn(text) });
    current = undefined;
  };
  for (const line of prelude.split('\n')) {
    const top = line.length > 0 && !/^\s/.test(line);
    if (top && line.startsWith('--')) {
      close();
      pending.push(line);
    } else if (top && line.startsWith('local ')) {
      close();
      current = [...pending, line];
      pending = [];
    } else if (current !== undefined && (!top || line === 'end' || line === '}')) {
      current.push(line);
    } else if (line.trim() !== '') {
      throw new Error(`shared Lua: a top-level line outside any local definition: ${line}`);
    }
  }
  close();
  const definers = new Map<string, Statement[]>();
  for (const statement of statements) {
    for (const name of statement.defines) {
      const found = definers.get(name);
      if (found === undefined) definers.set(name, [statement]);
      else found.push(statement);
    }
  }
  return { statements, definers };
}

/** The statements of `prelude` that `body` needs, in prelude order, joined. */
export function preludeFor(prelude: Prelude, body: string): string {
  const { statements, definers } = prelude;
  const kept = new Set<Statement>();
  const seen = new Set<string>();
  const wanted = [...namesIn(body)];
  for (let name = wanted.pop(); name !== undefined; name = wanted.pop()) {
    if (seen.has(name)) continue;
    seen.add(name);
    for (const statement of definers.get(name) ?? []) {
      if (kept.has(statement)) continue;
      kept.add(statement);
      wanted.push(...statement.names);
    }
  }
  return statements
    .filter((statement) => kept.has(statement))
    .map((statement) => statement.text)
    .join('\n');
}

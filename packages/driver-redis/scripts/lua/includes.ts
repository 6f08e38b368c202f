import type { Problems } from './problems.js';
import { analyzeLua, LuaSyntaxError, type Place } from './scope.js';
import { type Include, type Line, splitStatements, textOf } from './source.js';

/** One top-level `local` of an include file, and the statements it needs. */
export interface Statement {
  readonly file: string;
  readonly index: number;
  readonly lines: readonly Line[];
  readonly defines: readonly string[];
  readonly free: readonly Place[];
  readonly deps: Statement[];
}

interface IncludeFile {
  readonly name: string;
  readonly includes: readonly Include[];
  readonly statements: readonly Statement[];
  readonly definers: ReadonlyMap<string, Statement>;
  /** Made by TypeScript (the key builders): what no script uses is no problem. */
  readonly made: boolean;
  /** Its Lua could not be cut into statements (a problem already noted). */
  readonly broken: boolean;
}

/** An include file's lines, read: its includes and its Lua with the fills made. */
export interface IncludeSource {
  readonly includes: readonly Include[];
  readonly lua: readonly Line[];
  readonly made: boolean;
}

/** Who names a helper: a script or an include file, with the includes it lists. */
export interface Includer {
  readonly label: string;
  readonly includes: readonly Include[];
  readonly own?: IncludeFile;
}

const at = (lines: readonly Line[], place: { readonly line: number }): Line =>
  lines[place.line - 1] ?? lines[0] ?? { text: '', file: '?', line: 0 };

export const firstOfEach = (places: readonly Place[]): Place[] => {
  const seen = new Set<string>();
  return places.filter((place) => !seen.has(place.name) && seen.add(place.name));
};

/** Lua analysed, or undefined with its syntax error noted at its source line. */
export function analyzeLines(lines: readonly Line[], problems: Problems) {
  try {
    return analyzeLua(textOf(lines));
  } catch (error) {
    if (!(error instanceof LuaSyntaxError)) throw error;
    problems.fail(at(lines, error), `syntax: ${error.message}`);
    return undefined;
  }
}

/**
 * Every include file cut into its statements, each statement linked to the ones it names. A
 * file must include every file whose helpers it names itself, and nothing else.
 */
export class IncludeSet {
  readonly #files = new Map<string, IncludeFile>();
  readonly #problems: Problems;

  constructor(sources: ReadonlyMap<string, IncludeSource>, problems: Problems) {
    this.#problems = problems;
    for (const [name, source] of sources) this.#add(name, source);
    for (const file of this.#files.values()) {
      const used = new Set<string>();
      const who = { label: `"${file.name}"`, includes: file.includes, own: file };
      for (const statement of file.statements) {
        for (const place of statement.free) {
          const dep = this.resolve(place, statement.lines, who, used);
          if (dep !== undefined && dep !== statement) statement.deps.push(dep);
        }
      }
      this.checkIncludes(who.label, file.includes, used);
    }
  }

  #add(name: string, source: IncludeSource) {
    const statements: Statement[] = [];
    const definers = new Map<string, Statement>();
    const cut = this.#problems.guard(() => splitStatements(source.lua));
    for (const lines of cut ?? []) {
      const analysis = analyzeLines(lines, this.#problems);
      if (analysis === undefined) continue;
      const first = lines.find((line) => line.text.startsWith('local ')) ?? at(lines, { line: 1 });
      if (analysis.statements !== 1)
        this.#problems.fail(first, 'a line holding more than one statement');
      const statement: Statement = {
        file: name,
        index: statements.length,
        lines,
        defines: analysis.topLevel,
        free: firstOfEach(analysis.free),
        deps: [],
      };
      statements.push(statement);
      for (const defined of statement.defines) {
        if (definers.has(defined))
          this.#problems.fail(first, `${defined} is defined twice in "${name}"`);
        definers.set(defined, statement);
      }
    }
    const { includes, made } = source;
    this.#files.set(name, {
      name,
      includes,
      statements,
      definers,
      made,
      broken: cut === undefined,
    });
  }

  /** The statement a name refers to: the includer's own, or its includes' (none: a global). */
  resolve(
    place: Place,
    lines: readonly Line[],
    who: Includer,
    used: Set<string>,
  ): Statement | undefined {
    const own = who.own?.definers.get(place.name);
    if (own !== undefined) return own;
    const where = at(lines, place);
    const found = who.includes.flatMap(
      ({ name }) => this.#files.get(name)?.definers.get(place.name) ?? [],
    );
    if (found.length > 1) {
      const files = found.map((statement) => `"${statement.file}"`).join(' and ');
      this.#problems.fail(where, `${place.name} is defined by ${files}`);
    }
    const [definer] = found;
    if (definer !== undefined) {
      used.add(definer.file);
      return definer;
    }
    const elsewhere = [...this.#files.values()].filter((file) => file.definers.has(place.name));
    if (elsewhere.length > 0) {
      const files = elsewhere.map((file) => `"${file.name}"`).join(' or ');
      this.#problems.fail(
        where,
        `${who.label} uses ${place.name} of ${files}, which it does not include`,
      );
    }
    return undefined;
  }

  /** Each include exists, and supplies something the includer names. */
  checkIncludes(label: string, includes: readonly Include[], used: ReadonlySet<string>): void {
    for (const include of includes) {
      const file = this.#files.get(include.name);
      if (file === undefined) {
        this.#problems.fail(include.at, `${label} includes "${include.name}": no such include`);
      } else if (!used.has(include.name) && !file.broken) {
        this.#problems.fail(
          include.at,
          `${label} includes "${include.name}" but uses nothing it defines`,
        );
      }
    }
  }

  /** Include names depth first, each after the files it includes; a cycle is a problem. */
  orderOf(includes: readonly Include[]): string[] {
    const order: string[] = [];
    const walk = (include: Include, path: readonly string[]) => {
      if (path.includes(include.name)) {
        this.#problems.fail(
          include.at,
          `includes form a cycle: ${[...path, include.name].join(' -> ')}`,
        );
        return;
      }
      if (order.includes(include.name)) return;
      for (const inner of this.#files.get(include.name)?.includes ?? [])
        walk(inner, [...path, include.name]);
      order.push(include.name);
    };
    for (const include of includes) walk(include, []);
    return order;
  }

  /** Statements of include files (not made ones) that no script kept: dead helpers. */
  checkAllKept(kept: ReadonlySet<Statement>): void {
    for (const file of this.#files.values()) {
      if (file.made) continue;
      for (const statement of file.statements) {
        if (kept.has(statement)) continue;
        const first = statement.lines.find((line) => line.text.startsWith('local '));
        const where = first ?? at(statement.lines, { line: 1 });
        this.#problems.fail(where, `${statement.defines.join(', ')}: no script uses it`);
      }
    }
  }
}

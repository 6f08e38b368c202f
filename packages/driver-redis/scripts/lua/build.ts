import { checkHeader } from './header.js';
import {
  analyzeLines,
  firstOfEach,
  IncludeSet,
  type IncludeSource,
  type Statement,
} from './includes.js';
import { Problems } from './problems.js';
import {
  expand,
  type Fill,
  type Line,
  type LuaFile,
  linesOf,
  readLuaFile,
  textOf,
} from './source.js';

/**
 * Makes each script's full text: the statements of its includes it uses, directly or through
 * another kept statement, then its own Lua. Kept statements come in include order (depth first,
 * each file after the files it includes, in the order listed), then file order, so every local
 * is defined before the statements using it.
 */

export interface SourceText {
  readonly path: string;
  readonly text: string;
}

export interface LuaSources {
  /** `scripts/<name>.lua`, by name. */
  readonly scripts: ReadonlyMap<string, SourceText>;
  /** `include/<name>.lua`, by name. */
  readonly includes: ReadonlyMap<string, SourceText>;
  /** Includes TypeScript makes (the key builders): statements only, no header. */
  readonly made: ReadonlyMap<string, SourceText>;
  /** What each `{{NAME}}` becomes; `{{script:name}}` is that script's Lua after its header. */
  readonly fills: Readonly<Record<string, string>>;
}

export interface BuiltScript {
  readonly name: string;
  readonly path: string;
  readonly lua: string;
  /** Each line of `lua`, with where it came from. */
  readonly lines: readonly Line[];
}

/** Every script, in name order; a LuaBuildError names every problem of the sources. */
export function buildScripts(sources: LuaSources): BuiltScript[] {
  const problems = new Problems();
  const usedFills = new Set<string>();
  const scriptFiles = new Map<string, LuaFile | undefined>();
  const scriptFile = (name: string) => {
    if (!scriptFiles.has(name)) {
      const source = sources.scripts.get(name);
      scriptFiles.set(name, source && problems.guard(() => readLuaFile(source.path, source.text)));
    }
    return scriptFiles.get(name);
  };
  /** The fill of a placeholder, in the scripts `inScript` (outermost first; none: an include). */
  const fill =
    (inScript: readonly string[]) =>
    (name: string, where: Line): Fill => {
      if (name.startsWith('script:')) {
        const target = name.slice('script:'.length);
        if (inScript.length === 0) problems.fail(where, `{{${name}}} is only for scripts`);
        else if (inScript.includes(target))
          problems.fail(where, `{{${name}}} fills a script into itself`);
        else if (scriptFile(target) === undefined)
          problems.fail(where, `{{${name}}}: no such script`);
        else return luaOf(target, inScript);
        return '';
      }
      if (!Object.hasOwn(sources.fills, name)) {
        problems.fail(where, `{{${name}}} is not a fill (scripts/lua/fills.ts)`);
        return '';
      }
      usedFills.add(name);
      return sources.fills[name] ?? '';
    };
  const luaOf = (name: string, outer: readonly string[]): Line[] =>
    expand(scriptFile(name)?.body ?? [], fill([...outer, name]));

  const includeSources = new Map<string, IncludeSource>();
  for (const [name, source] of sources.made) {
    includeSources.set(name, { includes: [], lua: linesOf(source.text, source.path), made: true });
  }
  for (const [name, source] of sources.includes) {
    if (includeSources.has(name)) {
      problems.fail({ file: source.path, line: 0 }, `"${name}" is made by TypeScript`);
      continue;
    }
    const file = problems.guard(() => readLuaFile(source.path, source.text));
    if (file === undefined) continue;
    includeSources.set(name, {
      includes: file.includes,
      lua: expand(file.body, fill([])),
      made: false,
    });
  }
  const includes = new IncludeSet(includeSources, problems);

  const kept = new Set<Statement>();
  const built: BuiltScript[] = [];
  for (const name of [...sources.scripts.keys()].sort()) {
    const file = scriptFile(name);
    if (file === undefined) continue;
    const lua = luaOf(name, []);
    checkHeader(file, lua, problems);
    const analysis = analyzeLines(lua, problems);
    if (analysis === undefined) continue;
    const used = new Set<string>();
    const wanted: Statement[] = [];
    const who = { label: `script "${name}"`, includes: file.includes };
    for (const place of firstOfEach(analysis.free)) {
      const dep = includes.resolve(place, lua, who, used);
      if (dep !== undefined) wanted.push(dep);
    }
    includes.checkIncludes(who.label, file.includes, used);
    const needed = new Set<Statement>();
    for (let next = wanted.pop(); next !== undefined; next = wanted.pop()) {
      if (needed.has(next)) continue;
      needed.add(next);
      wanted.push(...next.deps);
    }
    const rank = new Map(includes.orderOf(file.includes).map((include, index) => [include, index]));
    const prelude = [...needed].sort(
      (a, b) => (rank.get(a.file) ?? 0) - (rank.get(b.file) ?? 0) || a.index - b.index,
    );
    // One name from two files: the later local would hide the earlier from what follows it.
    const definers = new Map<string, Statement>();
    for (const statement of prelude) {
      kept.add(statement);
      for (const defined of statement.defines) {
        const other = definers.get(defined);
        const where = file.header[0] ?? { file: file.path, line: 1 };
        if (other !== undefined) {
          problems.fail(where, `gets ${defined} from both "${other.file}" and "${statement.file}"`);
        }
        definers.set(defined, statement);
      }
    }
    const lines = [...prelude.flatMap((statement) => statement.lines), ...lua];
    built.push({ name, path: file.path, lua: textOf(lines), lines });
  }

  includes.checkAllKept(kept);
  for (const name of Object.keys(sources.fills)) {
    if (!usedFills.has(name)) {
      problems.fail({ file: 'scripts/lua/fills.ts', line: 0 }, `{{${name}}}: no source uses it`);
    }
  }
  problems.throwIfAny();
  return built;
}

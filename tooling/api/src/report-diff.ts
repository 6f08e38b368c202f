/**
 * How an API report differs from an earlier one, declaration by declaration. The kinds are what
 * the bump rule reads (tooling/api/README.md): `removed` and `changed` can break a caller,
 * `added` cannot, `doc` touches only comments.
 */
export type DifferenceKind = 'removed' | 'changed' | 'added' | 'doc';

/** Each kind of difference found, with the declarations it concerns. */
export type ReportDifference = ReadonlyMap<DifferenceKind, readonly string[]>;

interface Declaration {
  exported: boolean;
  /** Its code lines, trimmed, `export` dropped: what a caller compiles against. */
  readonly code: string[];
  /** Its comment lines, trimmed: doc markers, warnings, release tags. */
  readonly comments: string[];
}

const START =
  /^(export )?(?:declare )?(?:abstract )?(?:const enum|const|let|var|function|class|interface|type|enum|namespace) ([\w$]+)/;
/** A footer line API Extractor writes above a declaration or member: `// @public @deprecated (undocumented)`. */
const FOOTER = /^\/\/ ((?:@\w+ ?)+)?(?:\(undocumented\))?$/;
/** An optional member (`readonly x?: T;`, `f?(): T;`): adding one breaks no caller or implementer. */
const OPTIONAL_MEMBER = /^(?:readonly )?(?:[\w$]+|\[[^\]]+\]|'[^']*'|"[^"]*")\?[:(]/;
/** The declarations of a report's code block by name (overloads share one), and its loose comments. */
function parse(report: string): { decls: Map<string, Declaration>; loose: string[] } {
  const body = /```ts\n([\s\S]*?)\n```/.exec(report)?.[1] ?? '';
  const decls = new Map<string, Declaration>();
  let pending: string[] = [];
  let current: Declaration | undefined;
  for (const line of body.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || line.startsWith('import ')) continue;
    const topLevel = line === trimmed;
    if (topLevel && trimmed.startsWith('//')) {
      pending.push(trimmed);
      current = undefined;
      continue;
    }
    const start = topLevel ? START.exec(trimmed) : null;
    if (start !== null) {
      const name = start[2] as string;
      current = decls.get(name) ?? { exported: false, code: [], comments: [] };
      current.exported ||= start[1] !== undefined;
      current.comments.push(...pending);
      pending = [];
      decls.set(name, current);
    }
    if (current === undefined) continue;
    if (trimmed.startsWith('//')) current.comments.push(trimmed);
    else current.code.push(trimmed.replace(/^export /, ''));
  }
  return { decls, loose: pending };
}

/** Lines of `a` that `b` lacks, counting repeats. */
function minus(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const line of b) left.set(line, (left.get(line) ?? 0) + 1);
  return a.filter((line) => {
    const count = left.get(line) ?? 0;
    left.set(line, count - 1);
    return count <= 0;
  });
}

const sameLines = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((line, at) => line === b[at]);

function classify(before: Declaration, after: Declaration): DifferenceKind | undefined {
  if (before.exported && !after.exported) return 'removed';
  if (!sameLines(before.code, after.code)) {
    const dropped = minus(before.code, after.code);
    const gained = minus(after.code, before.code);
    const onlyOptional = dropped.length === 0 && gained.every((line) => OPTIONAL_MEMBER.test(line));
    return onlyOptional ? 'added' : 'changed';
  }
  if (!before.exported && after.exported) return 'added';
  // Release stage and modifier tags (@public, @sealed, @virtual) are API; a new @deprecated is
  // news for callers that semver gives a minor release; "(undocumented)" and warnings are docs.
  const tags = (decl: Declaration, deprecated: boolean) =>
    decl.comments
      .flatMap((line) => FOOTER.exec(line)?.[1]?.trim().split(' ') ?? [])
      .filter((tag) => (tag === '@deprecated') === deprecated)
      .sort();
  if (!sameLines(tags(before, false), tags(after, false))) return 'changed';
  if (tags(after, true).length > tags(before, true).length) return 'added';
  return sameLines(before.comments, after.comments) ? undefined : 'doc';
}

/** How `after` differs from `before` (an empty map when they declare the same API and docs). */
export function diffReports(before: string, after: string): ReportDifference {
  const old = parse(before);
  const now = parse(after);
  const found = new Map<DifferenceKind, string[]>();
  const note = (kind: DifferenceKind, name: string) =>
    found.set(kind, [...(found.get(kind) ?? []), name]);
  for (const [name, decl] of old.decls) {
    const next = now.decls.get(name);
    if (next === undefined) {
      if (decl.exported) note('removed', name);
      // A type that was only reachable, never importable, left with the declaration using it.
      else note('changed', name);
      continue;
    }
    const kind = classify(decl, next);
    if (kind !== undefined) note(kind, name);
  }
  // A new type that is only reachable (not exported) came with a declaration using it, whose own
  // difference says what the change is.
  for (const name of now.decls.keys()) if (!old.decls.has(name)) note('added', name);
  if (!sameLines(old.loose, now.loose)) note('doc', '(report notes)');
  return found;
}

import { type Changeset, higherBump } from '@berth/packaging/changesets';
import { type DifferenceKind, diffReports, type ReportDifference } from './report-diff.js';

/** A bump a package may need: at least a patch. */
export type Bump = 'patch' | 'minor' | 'major';

/**
 * The bump a difference of `kind` needs at `version` (tooling/api/README.md). Before 1.0 a caret
 * range (`^0.3.0`) takes no new minor, so a minor release may break; from 1.0 only a major may.
 */
export function bumpFor(kind: DifferenceKind, version: string): Bump {
  if (kind === 'doc') return 'patch';
  if (kind === 'added') return 'minor';
  return Number(version.split('.')[0]) >= 1 ? 'major' : 'minor';
}

/** The highest bump each package gets from the pending changesets (`readChangesets`). */
export function pendingBumps(changesets: readonly Changeset[]): Map<string, Bump> {
  const bumps = new Map<string, Bump>();
  for (const { releases } of changesets) {
    for (const [name, bump] of releases) {
      if (bump === 'none') continue;
      const held = bumps.get(name);
      bumps.set(name, held === undefined ? bump : higherBump(held, bump));
    }
  }
  return bumps;
}

/** One entry's report now and as released (`undefined`: not released yet, so all of it is new). */
export interface ReleasedComparison {
  readonly packageName: string;
  readonly version: string;
  readonly reportName: string;
  readonly released: string | undefined;
  readonly current: string;
}

const describe = (reportName: string, difference: ReportDifference): string =>
  [...difference]
    .map(
      ([kind, names]) => `${kind} ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}`,
    )
    .map((text) => `${reportName}: ${text}`)
    .join('; ');

/**
 * Each package whose API differs from its released reports by more than its pending changesets
 * bump it for, as a message naming the package, the difference and the fix.
 */
export function missingBumps(
  comparisons: readonly ReleasedComparison[],
  pending: ReadonlyMap<string, Bump>,
): string[] {
  const needs = new Map<string, { version: string; bump: Bump; found: string[] }>();
  for (const entry of comparisons) {
    const difference = diffReports(entry.released ?? '', entry.current);
    if (difference.size === 0) continue;
    const need = needs.get(entry.packageName) ?? {
      version: entry.version,
      bump: 'patch',
      found: [],
    };
    for (const kind of difference.keys())
      need.bump = higherBump(need.bump, bumpFor(kind, entry.version));
    need.found.push(describe(entry.reportName, difference));
    needs.set(entry.packageName, need);
  }
  const problems: string[] = [];
  for (const [name, { version, bump, found }] of needs) {
    const given = pending.get(name);
    if (given !== undefined && higherBump(bump, given) === given) continue;
    problems.push(
      `${name} (${version}) needs a ${bump} changeset: since the last release its API report shows ` +
        `${found.join('; ')}. The pending changesets give it ${given ?? 'no bump'}: ` +
        `run pnpm changeset and choose ${bump} for ${name}.`,
    );
  }
  return problems;
}

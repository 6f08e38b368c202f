import type { PhaseRecord, RunRecord } from './run-child.ts';
import { percentile, type Spread, spread } from './stats.ts';
import type { SystemDefinition } from './systems/types.ts';
import type { WorkloadName } from './workloads/names.ts';

/** One phase of one run, reduced to the figures the report prints. */
export interface PhaseFigures {
  readonly rate: number;
  readonly clientUsPerJob: number;
  readonly serverUsPerJob: number | undefined;
  readonly cpuUsPerJob: number | undefined;
  readonly p50Ms?: number;
  readonly p95Ms?: number;
}

export function figures(phase: PhaseRecord): PhaseFigures {
  const clientUsPerJob = phase.clientCpuUs / phase.jobs;
  const serverUsPerJob =
    phase.serverCpuUs === undefined ? undefined : phase.serverCpuUs / phase.jobs;
  const base = {
    rate: phase.jobs / (phase.wallMs / 1_000),
    clientUsPerJob,
    serverUsPerJob,
    cpuUsPerJob: serverUsPerJob === undefined ? undefined : clientUsPerJob + serverUsPerJob,
  };
  if (phase.latenciesMs === undefined) return base;
  const sorted = [...phase.latenciesMs].sort((a, b) => a - b);
  return { ...base, p50Ms: percentile(sorted, 0.5), p95Ms: percentile(sorted, 0.95) };
}

/** A phase's figures over the rounds. */
export interface PhaseSummary {
  readonly rate: Spread | undefined;
  readonly cpu: Spread | undefined;
  readonly client: Spread | undefined;
  readonly server: Spread | undefined;
  readonly p50: Spread | undefined;
  readonly p95: Spread | undefined;
}

/** Per (workload, system, phase): its figures in each round. */
export type Table = Map<string, Map<number, PhaseFigures>>;

export const cellKey = (workload: string, system: string, phase: string): string =>
  `${workload}|${system}|${phase}`;

export function tabulate(records: readonly RunRecord[]): Table {
  const table: Table = new Map();
  for (const record of records) {
    if (record.error !== undefined) continue;
    for (const phase of record.phases) {
      const key = cellKey(record.workload, record.system, phase.phase);
      const rounds = table.get(key) ?? new Map<number, PhaseFigures>();
      rounds.set(record.round, figures(phase));
      table.set(key, rounds);
    }
  }
  return table;
}

export function summarize(rounds: ReadonlyMap<number, PhaseFigures> | undefined): PhaseSummary {
  const all = [...(rounds?.values() ?? [])];
  return {
    rate: spread(all.map((f) => f.rate)),
    cpu: spread(all.map((f) => f.cpuUsPerJob)),
    client: spread(all.map((f) => f.clientUsPerJob)),
    server: spread(all.map((f) => f.serverUsPerJob)),
    p50: spread(all.map((f) => f.p50Ms)),
    p95: spread(all.map((f) => f.p95Ms)),
  };
}

/** `pick(a) / pick(b)` in each round both ran, over the rounds. */
export function roundRatio(
  table: Table,
  a: string,
  b: string,
  pick: (f: PhaseFigures) => number | undefined,
): Spread | undefined {
  const mine = table.get(a);
  const theirs = table.get(b);
  if (mine === undefined || theirs === undefined) return undefined;
  const ratios: (number | undefined)[] = [];
  for (const [round, figures] of mine) {
    const other = theirs.get(round);
    const top = pick(figures);
    const bottom = other === undefined ? undefined : pick(other);
    ratios.push(
      top === undefined || bottom === undefined || bottom === 0 ? undefined : top / bottom,
    );
  }
  return spread(ratios);
}

/** One Berth system against one peer of the same server, in one phase of one workload. */
export interface Comparison {
  readonly workload: string;
  readonly phase: string;
  readonly system: string;
  readonly versus: string;
  /** Berth's jobs/s ÷ the peer's (above 1: Berth is faster). */
  readonly rate: Spread | undefined;
  /** Berth's CPU µs/job ÷ the peer's (below 1: Berth is cheaper). */
  readonly cpu: Spread | undefined;
  /** Berth's p50 latency ÷ the peer's (below 1: Berth starts jobs sooner). */
  readonly p50: Spread | undefined;
}

export function compare(
  table: Table,
  workload: string,
  phase: string,
  system: string,
  versus: string,
): Comparison {
  const a = cellKey(workload, system, phase);
  const b = cellKey(workload, versus, phase);
  return {
    workload,
    phase,
    system,
    versus,
    rate: roundRatio(table, a, b, (f) => f.rate),
    cpu: roundRatio(table, a, b, (f) => f.cpuUsPerJob),
    p50: roundRatio(table, a, b, (f) => f.p50Ms),
  };
}

/** Every Berth system against every peer on its server, in each phase both ran. */
export function comparisons(
  table: Table,
  systems: readonly SystemDefinition[],
  workload: string,
  phases: readonly string[],
): Comparison[] {
  const out: Comparison[] = [];
  for (const berth of systems.filter((s) => s.role === 'berth')) {
    for (const peer of systems.filter((s) => s.role === 'peer' && s.server === berth.server)) {
      for (const phase of phases) {
        const found = compare(table, workload, phase, berth.name, peer.name);
        if (found.rate !== undefined || found.p50 !== undefined) out.push(found);
      }
    }
  }
  return out;
}

/** A system's jobs/s as a share of its server floor's, round by round. */
export function floorShare(
  table: Table,
  workload: string,
  phase: string,
  system: SystemDefinition,
): Spread | undefined {
  if (system.floor === undefined) return undefined;
  return roundRatio(
    table,
    cellKey(workload, system.name, phase),
    cellKey(workload, system.floor, phase),
    (f) => f.rate,
  );
}

/** The committed digest of a run: every cell's spread, every comparison, every floor share. */
export function digest(
  table: Table,
  systems: readonly SystemDefinition[],
  workloads: readonly WorkloadName[],
  phasesOf: (workload: WorkloadName) => readonly string[],
) {
  return workloads.map((workload) => {
    const phases = phasesOf(workload);
    const ran = systems.filter((s) => phases.some((p) => table.has(cellKey(workload, s.name, p))));
    return {
      workload,
      systems: ran.map((system) => ({
        system: system.name,
        phases: phases.map((phase) => ({
          phase,
          ...summarize(table.get(cellKey(workload, system.name, phase))),
          floorShare: floorShare(table, workload, phase, system),
        })),
      })),
      comparisons: comparisons(table, ran, workload, phases),
    };
  });
}

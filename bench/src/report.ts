import { count, markdownTable, micros, millis, percent, spreadText, times } from './format.ts';
import type { Machine } from './machine.ts';
import type { BenchOptions } from './options.ts';
import type { RunRecord } from './run-child.ts';
import { cellKey, comparisons, floorShare, summarize, type Table } from './summary.ts';
import type { SystemDefinition } from './systems/types.ts';
import type { TargetResult } from './targets.ts';
import { WORKLOAD_JOBS, type WorkloadName } from './workloads/names.ts';

export interface ReportInput {
  readonly options: BenchOptions;
  readonly machine: Machine;
  readonly records: readonly RunRecord[];
  readonly table: Table;
  readonly targets: readonly TargetResult[];
}

const LATENCY = 'latency';

/** The phases a workload's runs reported, in the order they ran. */
export function phasesOf(records: readonly RunRecord[], workload: WorkloadName): string[] {
  const phases: string[] = [];
  for (const record of records) {
    if (record.workload !== workload) continue;
    for (const { phase } of record.phases) if (!phases.includes(phase)) phases.push(phase);
  }
  return phases;
}

function cpuText(table: Table, key: string): string {
  const s = summarize(table.get(key));
  if (s.cpu === undefined) return s.client === undefined ? '–' : `${micros(s.client.median)} + ?`;
  const split = `${micros(s.client?.median ?? 0)} + ${micros(s.server?.median ?? 0)}`;
  return `${spreadText(s.cpu, micros)} = ${split}`;
}

function workloadSection(input: ReportInput, workload: WorkloadName): string {
  const { records, table, options } = input;
  const phases = phasesOf(records, workload);
  const systems = options.systems.filter((s) => s.workloads.includes(workload));
  if (phases.length === 0 || systems.length === 0) return '';
  const throughput = phases.filter((phase) => phase !== LATENCY);
  const shares = throughput.filter((phase) =>
    systems.some((s) => floorShare(table, workload, phase, s) !== undefined),
  );

  const head = ['system'];
  for (const phase of phases) {
    if (phase === LATENCY) head.push('p50 ms', 'p95 ms');
    else head.push(`${phase} jobs/s`, `${phase} CPU µs/job (client + server)`);
  }
  for (const phase of shares) head.push(`${phase} share of floor`);

  const rows = systems.map((system) => {
    const row = [system.name];
    for (const phase of phases) {
      const key = cellKey(workload, system.name, phase);
      const s = summarize(table.get(key));
      if (phase === LATENCY) row.push(spreadText(s.p50, millis), spreadText(s.p95, millis));
      else row.push(spreadText(s.rate, count), cpuText(table, key));
    }
    for (const phase of shares)
      row.push(spreadText(floorShare(table, workload, phase, system), percent));
    return row;
  });

  const parts = [`### ${workload} — ${describe(workload, options)}`, markdownTable(head, rows)];
  const compared = comparisons(table, systems, workload, phases);
  if (compared.length > 0) {
    const ratioRows = compared.map((c) =>
      c.phase === LATENCY
        ? [c.system, c.versus, c.phase, '–', '–', spreadText(c.p50, times)]
        : [c.system, c.versus, c.phase, spreadText(c.rate, times), spreadText(c.cpu, times), '–'],
    );
    parts.push(
      'Berth ÷ peer, per round (median, min–max): jobs/s above 1× and CPU/job or p50 below 1× favour Berth.',
      markdownTable(['Berth', 'peer', 'phase', 'jobs/s ×', 'CPU µs/job ×', 'p50 ×'], ratioRows),
    );
  }
  const failed = records.filter((r) => r.workload === workload && r.error !== undefined);
  for (const run of failed) {
    parts.push(`- FAILED round ${run.round} ${run.system}: ${run.error?.split('\n')[0] ?? ''}`);
  }
  return parts.join('\n\n');
}

function describe(workload: WorkloadName, options: BenchOptions): string {
  const n = (jobs: number) => Math.max(1, Math.round(jobs * options.scale)).toLocaleString('en');
  switch (workload) {
    case 'burn20k':
    case 'burn100k':
      return `${n(WORKLOAD_JOBS[workload])} jobs enqueued in batches of 1,000, then burned down by one worker`;
    case 'burn20k-analyzed':
      return `as burn20k, with every table ANALYZEd between enqueue and burn-down`;
    case 'bulk':
      return `${n(WORKLOAD_JOBS.bulk)} jobs in batches of 1,000, then ${n(WORKLOAD_JOBS.single)} single enqueues, no worker`;
    case 'latency':
      return `up to ${options.latencySamples} single jobs, one at a time, to an idle worker (30 s budget)`;
    case 'mixed':
      return `${n(WORKLOAD_JOBS.mixed)} jobs enqueued in batches of 100 while one worker burns them down`;
  }
}

function targetSection(targets: readonly TargetResult[]): string {
  const rows = targets.map((t) => [
    t.target,
    spreadText(t.measured, t.unit === '×' ? times : count),
    t.met === undefined ? 'not measured' : t.met ? 'met' : 'NOT met',
  ]);
  return ['### Targets (issue 27)', markdownTable(['target', 'measured', ''], rows)].join('\n\n');
}

function settingsSection(systems: readonly SystemDefinition[]): string {
  const rows = systems.map((s) => [s.name, s.settings]);
  return ['### Settings', markdownTable(['system', 'runs with'], rows)].join('\n\n');
}

export function renderReport(input: ReportInput): string {
  const { machine, options } = input;
  const header = [
    `## Berth bench — ${machine.startedAt.slice(0, 10)}`,
    `${options.rounds} interleaved round(s), scale ${options.scale}. Machine: ${machine.note}.`,
    'Throughput is jobs/s (median, min–max over rounds). CPU µs/job = the worker/enqueuer process ' +
      '(`process.cpuUsage()`, plus pgbench for the pg floor) + the server over the same interval ' +
      "(pg: the run's own backends from /proc; redis: INFO cpu of the whole server).",
  ].join('\n\n');
  const sections = options.workloads.map((w) => workloadSection(input, w)).filter((s) => s !== '');
  return [header, ...sections, targetSection(input.targets), settingsSection(options.systems)].join(
    '\n\n',
  );
}

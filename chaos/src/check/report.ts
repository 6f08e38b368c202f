import type { Backend } from '../servers/server.ts';
import type { Variant } from '../variant.ts';
import type { CronFindings } from './cron.ts';
import { median } from './index-events.ts';
import type { JobFindings } from './jobs.ts';
import type { WindowLosses } from './loss-window.ts';
import type { PartitionFindings } from './partition.ts';

export interface BackendReport extends Variant {
  readonly backend: Backend;
  readonly profile: string;
  readonly durationMs: number;
  readonly enqueued: number;
  readonly acknowledged: number;
  readonly jobs: JobFindings;
  readonly keyed: JobFindings & { readonly overLimitUnits: number };
  readonly cron: CronFindings;
  readonly workerKills: number;
  readonly zombies: number;
  readonly slotStalls: number;
  /** What each try at a slot stall did, in words. */
  readonly slotStallTries: readonly string[];
  readonly leaderKills: number;
  /** ms from each worker SIGKILL until every job it held started again elsewhere. */
  readonly killRecoveryMs: readonly number[];
  readonly crashes: readonly {
    readonly downMs: number;
    readonly firstCompletionMs?: number | undefined;
  }[];
  /** The island's worker cut off from the server, per window (none on backends without). */
  readonly partitions: readonly PartitionFindings[];
  /** How long each cut of the primary's side lasted (ms). */
  readonly cuts?: readonly number[];
  /** Of the lost jobs, those the producer on the cut-off side enqueued. */
  readonly lostCutOff?: number;
  /** Per fault (crash or cut): the longest stretch the majority side completed nothing (ms). */
  readonly faultStallsMs?: readonly number[];
  /**
   * A backend with a documented loss window (pg-async-commit): what was lost inside it. The job
   * findings then hold only what was lost outside it.
   */
  readonly lossWindow?: WindowLosses;
}

/**
 * The findings a documented loss window explains (when the report has one): what discarded
 * writes cause — lost, completed twice, completed steps re-run, stale writes, keyed units over
 * the limit (a slot taken on the discarded side), cron slots. Empty otherwise.
 */
export function windowFindings(report: BackendReport): string[] {
  return report.documentedWindow === undefined ? [] : jobFindings(report);
}

/** Every broken promise in the report, in words; empty when the run kept them all. */
export function violations(report: BackendReport): string[] {
  const found = report.documentedWindow === undefined ? jobFindings(report) : [];
  const count = (what: string, ids: readonly unknown[]) => {
    if (ids.length > 0)
      found.push(`${report.backend}: ${ids.length} ${what} (e.g. ${ids.slice(0, 3).join(', ')})`);
  };
  for (const [kind, jobs] of [
    ['jobs', report.jobs],
    ['keyed jobs', report.keyed],
  ] as const) {
    count(`${kind} stuck in running`, jobs.stuck);
  }
  if (report.cron.slots === 0) found.push(`${report.backend}: no cron slot ran`);
  return found;
}

function jobFindings(report: BackendReport): string[] {
  const found: string[] = [];
  const count = (what: string, ids: readonly unknown[]) => {
    if (ids.length > 0)
      found.push(`${report.backend}: ${ids.length} ${what} (e.g. ${ids.slice(0, 3).join(', ')})`);
  };
  for (const [kind, jobs] of [
    ['jobs', report.jobs],
    ['keyed jobs', report.keyed],
  ] as const) {
    count(`${kind} lost`, jobs.lost);
    count(`${kind} completed twice`, jobs.completedTwice);
    count(`${kind} with a completed step re-executed`, jobs.stepReexecuted);
    count(`${kind} where a stale (zombie) write landed`, jobs.staleLanded);
  }
  if (report.keyed.overLimitUnits > 0) {
    found.push(
      `${report.backend}: ${report.keyed.overLimitUnits} units of keyed work ran over the per-key limit of 1`,
    );
  }
  count(
    'cron slots fired twice',
    report.cron.firedTwice.map((slot) => new Date(slot).toISOString()),
  );
  // A slot's enqueue raises the schedule's mark in the same atomic change, so a leader killed
  // (or cut off by a server crash) at any point left its slot enqueued with the mark, or
  // neither, and the next leader's catch-up enqueues it: a missed slot is a violation.
  count(
    'cron slots missed',
    report.cron.missed.map((slot) => new Date(slot).toISOString()),
  );
  return found;
}

const ms = (value: number | undefined) => (value === undefined ? '-' : `${Math.round(value)} ms`);

const each = (report: BackendReport, cell: (p: PartitionFindings) => string | number) =>
  report.partitions.map(cell).join(', ') || '-';

/** The Jepsen-style table: one row per figure, one column per backend. */
export function formatTable(reports: readonly BackendReport[]): string {
  const rows: [string, (report: BackendReport) => string | number][] = [
    ['profile', (r) => r.profile],
    ['run time', (r) => `${(r.durationMs / 1_000).toFixed(1)} s`],
    ['enqueued', (r) => r.enqueued],
    ['acknowledged enqueue', (r) => r.acknowledged],
    ['completed', (r) => r.jobs.completed],
    ['lost', (r) => r.jobs.lost.length],
    ['completed twice', (r) => r.jobs.completedTwice.length],
    ['completed step re-executed (bug)', (r) => r.jobs.stepReexecuted.length],
    [
      'inside the loss window: lost / completed twice / steps re-run',
      (r) =>
        r.lossWindow === undefined
          ? '-'
          : `${r.lossWindow.lost} / ${r.lossWindow.completedTwice} / ${r.lossWindow.stepReexecuted} (${r.lossWindow.windowMs} ms)`,
    ],
    ['in-flight step re-executed (expected)', (r) => r.jobs.inFlightReexecuted],
    ['stale write landed (zombie)', (r) => r.jobs.staleLanded.length],
    ['stale step write refused (LEASE_LOST)', (r) => r.jobs.staleRefused + r.keyed.staleRefused],
    ['attempts aborted on a lost lease', (r) => r.jobs.leaseLost + r.keyed.leaseLost],
    ['stuck in running', (r) => r.jobs.stuck.length + r.keyed.stuck.length],
    ['worker SIGKILLs / zombies (SIGSTOP)', (r) => `${r.workerKills} / ${r.zombies}`],
    ['recovery after a kill, median', (r) => ms(median(r.killRecoveryMs))],
    [
      'recovery after a kill, max',
      (r) => ms(r.killRecoveryMs.length === 0 ? undefined : Math.max(...r.killRecoveryMs)),
    ],
    ['server crashes (down for)', (r) => r.crashes.map((c) => ms(c.downMs)).join(', ') || '-'],
    [
      'first completion after the server came back',
      (r) => r.crashes.map((c) => ms(c.firstCompletionMs)).join(', ') || '-',
    ],
    [
      'keyed jobs completed / acknowledged',
      (r) => `${r.keyed.completed} / ${r.keyed.completed + r.keyed.lost.length}`,
    ],
    ['keyed: slot holders stalled past the ttl', (r) => r.slotStalls],
    ['keyed: tries to stall one (fresh key each)', (r) => r.slotStallTries.length],
    ['keyed: units over the per-key limit', (r) => r.keyed.overLimitUnits],
    ['partitions of a worker host (cut for)', (r) => each(r, (p) => ms(p.cutMs))],
    [
      'partition: probe blocked / reachable after heal',
      (r) => each(r, (p) => `${p.blocked ? 'yes' : 'NO'} / ${ms(p.reachableAfterMs)}`),
    ],
    [
      'partition: jobs held at the cut / re-claimed elsewhere',
      (r) => each(r, (p) => `${p.held} / ${p.reclaimed}`),
    ],
    ['partition: re-claimed after the cut (max)', (r) => each(r, (p) => ms(p.reclaimMs))],
    [
      'partition: late writes refused / attempts aborted / acks not landed (cut-off worker)',
      (r) => each(r, (p) => `${p.refused} / ${p.leaseLost} / ${p.unlanded}`),
    ],
    ['partition: acks the cut-off worker got while cut', (r) => each(r, (p) => p.ackedInside)],
    ['cron: slots / leader SIGKILLs', (r) => `${r.cron.slots} / ${r.leaderKills}`],
    ['cron: slots fired twice', (r) => r.cron.firedTwice.length],
    ['cron: slots missed', (r) => r.cron.missed.length],
  ];
  if (reports.some((report) => report.cuts !== undefined && report.cuts.length > 0)) {
    rows.push(['primary cut off (for)', (r) => (r.cuts ?? []).map(ms).join(', ') || '-']);
    rows.push(['lost: enqueued on the cut-off side', (r) => r.lostCutOff ?? '-']);
  }
  if (reports.some((report) => report.faultStallsMs !== undefined)) {
    rows.push([
      'longest stall of completions per fault',
      (r) => (r.faultStallsMs ?? []).map(ms).join(', ') || '-',
    ]);
  }
  const header = [
    '',
    ...reports.map((r) => (r.variant === undefined ? r.backend : `${r.backend} (${r.variant})`)),
  ];
  const body = rows.map(([label, cell]) => [
    label,
    ...reports.map((report) => String(cell(report))),
  ]);
  const widths = header.map((_, column) =>
    Math.max(...[header, ...body].map((row) => (row[column] ?? '').length)),
  );
  const line = (row: readonly string[]) =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const rule = `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

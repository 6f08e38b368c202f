import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_STALE_READY_AFTER_MS, JOB_STATES } from '@berth/core';
import { type Command, Option } from 'commander';
import { integerArg, positiveDurationArg } from '../args.js';
import { formatSpan } from '../duration.js';
import { escapeLine } from '../escape.js';
import type { Output } from '../output.js';
import { type Cli, withSession } from '../session.js';
import { refusesTenant } from '../tenancy.js';
import { type StatsReport, statsReport } from './stats-report.js';

const CLEAR_SCREEN = '\u001b[2J\u001b[H';

const rate = (value: number): string => (value === 0 ? '0' : String(value));

/** The keys table, under the queues' table: nothing at all when no keyed job runs. */
function renderKeys(out: Output, concurrency: StatsReport['concurrency']): void {
  const { keys, keyCount, scanned, truncated } = concurrency;
  if (keys.length === 0) return;
  out.line();
  out.table(
    ['JOB NAME', 'CONCURRENCY KEY', 'RUNNING'],
    keys.map((entry) => [escapeLine(entry.name), escapeLine(entry.key), String(entry.running)]),
    ['left', 'left', 'right'],
  );
  if (keyCount > keys.length) out.line(`… and ${keyCount - keys.length} more keys`);
  if (truncated) {
    out.line(
      out.color.dim(`the counts cover the newest ${scanned} running jobs (more were running)`),
    );
  }
}

function render(out: Output, report: StatsReport): void {
  const { queues, throughput, stale, concurrency } = report;
  if (queues.length === 0) {
    out.line('no jobs in any queue');
    return;
  }
  const alarm = new Set(['dead', 'failed']);
  const rates = new Map(throughput.queues.map((entry) => [entry.queue, entry]));
  out.table(
    [
      'QUEUE',
      ...JOB_STATES.map((state) => state.toUpperCase()),
      'OLDEST READY',
      'COMPLETED/MIN',
      'FAILED/MIN',
    ],
    queues.map((queue) => {
      const rated = rates.get(queue.queue);
      const failed = rated?.failedPerMinute ?? 0;
      return [
        escapeLine(queue.queue),
        ...JOB_STATES.map((state) => {
          const count = queue.counts[state];
          return count > 0 && alarm.has(state) ? out.color.red(String(count)) : String(count);
        }),
        queue.oldestReadyAgeMs === null ? '-' : formatSpan(queue.oldestReadyAgeMs),
        rate(rated?.completedPerMinute ?? 0),
        failed > 0 ? out.color.red(rate(failed)) : '0',
      ];
    }),
    ['left', ...JOB_STATES.map(() => 'right' as const), 'right', 'right', 'right'],
  );
  const bound =
    throughput.capped.length === 0
      ? ''
      : ` (at least: more ${throughput.capped.join(', ')} jobs than were read)`;
  out.line(
    out.color.dim(`per minute over the last ${throughput.minutes} min, this one included${bound}`),
  );
  renderKeys(out, concurrency);
  if (stale.names.length === 0) return;
  out.line();
  out.line(
    out.color.yellow(
      `ready jobs no worker ran for over ${formatSpan(stale.afterMs)} (a name no worker runs, or workers falling behind):`,
    ),
  );
  out.table(
    ['QUEUE', 'NAME', 'OLDEST READY', 'JOBS'],
    stale.names.map((entry) => [
      escapeLine(entry.queue),
      escapeLine(entry.name),
      formatSpan(entry.oldestReadyAgeMs),
      `${entry.seen}${stale.partial.includes(entry.queue) ? '+' : ''}`,
    ]),
    ['left', 'left', 'right', 'right'],
  );
}

interface StatsOptions {
  readonly watch?: boolean;
  readonly interval: number;
  readonly minutes: number;
  readonly staleAfter: number;
  readonly keys: number;
}

export function registerStats(program: Command, cli: Cli): void {
  const command = program.command('stats');
  refusesTenant(
    command,
    "it counts every tenant's jobs (the driver's stats have no tenant filter); berth jobs ls --tenant <id> --state <state> lists one tenant's",
  )
    .description(
      'per queue: jobs in each state, the age of the oldest ready job, completed and failed per minute; the names whose ready jobs wait too long; and the concurrency keys with the most jobs running',
    )
    .option('--watch', 'print again every interval until interrupted (Ctrl-C)')
    .addOption(
      new Option('--minutes <n>', 'the throughput window: the last N minutes, this one included')
        .argParser(integerArg(1, 60))
        .default(5),
    )
    .addOption(
      new Option(
        '--stale-after <duration>',
        'flag job names whose oldest ready job waited longer than this',
      )
        .argParser(positiveDurationArg)
        .default(DEFAULT_STALE_READY_AFTER_MS, '5m'),
    )
    .addOption(
      new Option(
        '--keys <n>',
        'how many concurrency keys to show, those with the most jobs running',
      )
        .argParser(integerArg(1, 10_000))
        .default(20),
    )
    .addOption(
      new Option('--interval <duration>', 'how often --watch prints')
        .argParser(positiveDurationArg)
        .default(2_000, '2s'),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  berth stats\n  berth stats --stale-after 1m --minutes 15\n  berth stats --keys 50\n  berth stats --watch --interval 5s',
    )
    .action(async (options: StatsOptions, command: Command) => {
      await withSession(cli, command, async ({ driver, out }) => {
        const stop = new AbortController();
        const interrupt = () => stop.abort();
        process.once('SIGINT', interrupt);
        process.once('SIGTERM', interrupt);
        try {
          for (;;) {
            const report = await statsReport(driver, {
              minutes: options.minutes,
              staleAfterMs: options.staleAfter,
              keys: options.keys,
            });
            const { at } = report;
            if (out.json) {
              // With --watch, one document per line (JSON Lines), each complete on its own.
              out.document(report);
            } else {
              if (options.watch === true && cli.io.stdout.isTTY === true)
                cli.io.stdout.write(CLEAR_SCREEN);
              if (options.watch === true) {
                out.line(
                  out.color.dim(
                    `${new Date(at).toISOString()}  every ${formatSpan(options.interval)}`,
                  ),
                );
              }
              render(out, report);
            }
            if (options.watch !== true) return;
            const waited = await sleep(options.interval, true, { signal: stop.signal }).catch(
              () => false,
            );
            if (!waited) return;
            if (!out.json && cli.io.stdout.isTTY !== true) out.line();
          }
        } finally {
          process.off('SIGINT', interrupt);
          process.off('SIGTERM', interrupt);
        }
      });
    });
}

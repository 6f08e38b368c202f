import { setTimeout as sleep } from 'node:timers/promises';
import { JOB_STATES, type QueueStats } from '@berth/core';
import { type Command, Option } from 'commander';
import { positiveDurationArg } from '../args.js';
import { formatSpan } from '../duration.js';
import { escapeLine } from '../escape.js';
import type { Output } from '../output.js';
import { type Cli, withSession } from '../session.js';
import { refusesTenant } from '../tenancy.js';

const CLEAR_SCREEN = '\u001b[2J\u001b[H';

function render(out: Output, queues: readonly QueueStats[]): void {
  if (queues.length === 0) {
    out.line('no jobs in any queue');
    return;
  }
  const alarm = new Set(['dead', 'failed']);
  out.table(
    ['QUEUE', ...JOB_STATES.map((state) => state.toUpperCase()), 'OLDEST READY'],
    queues.map((queue) => [
      escapeLine(queue.queue),
      ...JOB_STATES.map((state) => {
        const count = queue.counts[state];
        return count > 0 && alarm.has(state) ? out.color.red(String(count)) : String(count);
      }),
      queue.oldestReadyAgeMs === null ? '-' : formatSpan(queue.oldestReadyAgeMs),
    ]),
    ['left', ...JOB_STATES.map(() => 'right' as const), 'right'],
  );
}

export function registerStats(program: Command, cli: Cli): void {
  const command = program.command('stats');
  refusesTenant(
    command,
    "it counts every tenant's jobs (the driver's stats have no tenant filter); berth jobs ls --tenant <id> --state <state> lists one tenant's",
  )
    .description('per queue: how many jobs in each state, and the age of the oldest ready job')
    .option('--watch', 'print again every interval until interrupted (Ctrl-C)')
    .addOption(
      new Option('--interval <duration>', 'how often --watch prints')
        .argParser(positiveDurationArg)
        .default(2_000, '2s'),
    )
    .addHelpText('after', '\nExamples:\n  berth stats\n  berth stats --watch --interval 5s')
    .action(async (options: { watch?: boolean; interval: number }, command: Command) => {
      await withSession(cli, command, async ({ driver, out }) => {
        const stop = new AbortController();
        const interrupt = () => stop.abort();
        process.once('SIGINT', interrupt);
        process.once('SIGTERM', interrupt);
        try {
          for (;;) {
            const queues = await driver.stats();
            const at = driver.clock.now();
            if (out.json) {
              // With --watch, one document per line (JSON Lines), each complete on its own.
              out.document({ at, queues });
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
              render(out, queues);
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

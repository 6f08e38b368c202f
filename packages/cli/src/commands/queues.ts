import type { Driver, QueuePause } from '@berth/core';
import type { Command } from 'commander';
import { escapeLine } from '../escape.js';
import type { Output } from '../output.js';
import { showInstant } from '../render.js';
import { type Cli, withSession } from '../session.js';
import { refusesTenant } from '../tenancy.js';

/** A pause holds every tenant's jobs (contract/pause.ts), so no queues command takes --tenant. */
const WHOLE_QUEUE =
  "a pause holds the whole queue, every tenant's jobs alike; pause or resume it without --tenant, as an operator of the whole deployment";

/** One queue as `queues ls` shows it: its pause and how many jobs wait or run in it. */
interface QueueLine {
  readonly queue: string;
  readonly paused: boolean;
  readonly pausedAt?: number;
  readonly ready: number;
  readonly delayed: number;
  readonly running: number;
}

/** Every queue holding a row or paused, by name: stats and the pauses, merged. */
async function queueLines(driver: Driver): Promise<QueueLine[]> {
  const [stats, pauses] = await Promise.all([driver.stats(), driver.pauses.list()]);
  const paused = new Map(pauses.map((pause) => [pause.queue, pause]));
  const names = [...new Set([...stats.map((entry) => entry.queue), ...paused.keys()])].sort(
    (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  );
  const counts = new Map(stats.map((entry) => [entry.queue, entry.counts]));
  return names.map((queue) => {
    const count = counts.get(queue);
    const pause = paused.get(queue);
    return {
      queue,
      paused: pause !== undefined,
      ...(pause?.pausedAt === undefined ? {} : { pausedAt: pause.pausedAt }),
      ready: count?.ready ?? 0,
      delayed: count?.delayed ?? 0,
      running: count?.running ?? 0,
    };
  });
}

function showLines(out: Output, lines: readonly QueueLine[], now: number): void {
  if (lines.length === 0) {
    out.line('no queues: none holds a job or is paused');
    return;
  }
  out.table(
    ['QUEUE', 'STATUS', 'READY', 'DELAYED', 'RUNNING', 'PAUSED SINCE'],
    lines.map((line) => [
      escapeLine(line.queue),
      line.paused ? out.color.yellow('paused') : 'active',
      String(line.ready),
      String(line.delayed),
      String(line.running),
      line.pausedAt === undefined ? '-' : showInstant(line.pausedAt, now),
    ]),
    ['left', 'left', 'right', 'right', 'right', 'left'],
  );
}

function showPause(out: Output, pause: QueuePause, now: number): void {
  if (out.json) {
    out.document({ pause });
    return;
  }
  const queue = escapeLine(pause.queue);
  out.line(
    pause.paused
      ? `paused ${queue} since ${showInstant(pause.pausedAt, now)}: workers claim nothing from it; enqueues still land`
      : `resumed ${queue}: workers claim from it again`,
  );
}

export function registerQueues(program: Command, cli: Cli): void {
  const queues = program
    .command('queues')
    .description('list queues, and pause or resume one for every worker');

  refusesTenant(queues.command('ls'), WHOLE_QUEUE)
    .description(
      'every queue that holds a job or is paused: active or paused, jobs waiting and running',
    )
    .addHelpText('after', '\nExamples:\n  berth queues ls\n  berth queues ls --json')
    .action(async (_options: unknown, command: Command) => {
      await withSession(cli, command, async ({ driver, out }) => {
        const lines = await queueLines(driver);
        if (out.json) out.document({ queues: lines });
        else showLines(out, lines, driver.clock.now());
      });
    });

  refusesTenant(queues.command('pause'), WHOLE_QUEUE)
    .description(
      'pause a queue for every worker of the deployment: claims stop, enqueues still land, running jobs finish (a paused queue answers as it stands)',
    )
    .argument('<queue>', 'the queue to pause')
    .addHelpText('after', '\nExamples:\n  berth queues pause emails\n  berth queues resume emails')
    .action(async (queue: string, _options: unknown, command: Command) => {
      await withSession(cli, command, async ({ driver, out }) => {
        showPause(out, await driver.pauses.pause(queue), driver.clock.now());
      });
    });

  refusesTenant(queues.command('resume'), WHOLE_QUEUE)
    .description('resume a paused queue: its workers are woken and claim again at once')
    .argument('<queue>', 'the queue to resume')
    .addHelpText('after', '\nExamples:\n  berth queues resume emails')
    .action(async (queue: string, _options: unknown, command: Command) => {
      await withSession(cli, command, async ({ driver, out }) => {
        showPause(out, await driver.pauses.resume(queue), driver.clock.now());
      });
    });
}

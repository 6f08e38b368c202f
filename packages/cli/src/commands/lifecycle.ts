import { DEFAULT_TAIL_POLL_MS, type Driver, type LifecycleEvent, tailLifecycle } from '@berth/core';
import { type Command, Option } from 'commander';
import { lifecycleLimitArg, pollIntervalArg } from '../args.js';
import { UsageError } from '../errors.js';
import { escapeLine } from '../escape.js';
import { LIFECYCLE_HEAD, lifecycleLineText, lifecycleRow } from '../lifecycle-render.js';
import { forLifecycleRead } from '../operator-fixes.js';
import type { Output } from '../output.js';
import { type Cli, defined, withSession } from '../session.js';
import { honoursTenant } from '../tenancy.js';

interface LifecycleOptions {
  readonly queue?: string;
  readonly name?: string;
  readonly job?: string;
  readonly from?: string;
  readonly limit?: number;
  readonly follow?: boolean;
  readonly interval: number;
}

type Filters = { queue?: string; name?: string; jobId?: string; tenantId?: string };

export function registerLifecycle(program: Command, cli: Cli): void {
  const command = program.command('lifecycle');
  honoursTenant(command, "reads only that tenant's jobs' events")
    .description(
      'what happened to jobs (active, progress, completed, retried, suspended, failed, dead, stalled, cancelled), oldest first',
    )
    .option('--queue <queue>', 'only events of jobs of this queue')
    .option('--name <name>', 'only events of jobs of this name')
    .option('--job <id>', "only this job's events")
    .option(
      '--from <position>',
      'start, end, or a position printed before: the events after it (default start; --follow: end)',
    )
    .addOption(
      new Option('--limit <n>', 'events per page, 1 to 200 (default 100)').argParser(
        lifecycleLimitArg,
      ),
    )
    .option('--follow', 'keep printing events as they happen, until Ctrl-C')
    .addOption(
      new Option('--interval <duration>', 'how often a caught-up --follow reads again')
        .argParser(pollIntervalArg)
        .default(DEFAULT_TAIL_POLL_MS, '250ms'),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  berth lifecycle --queue emails --limit 20\n  berth lifecycle --job 0b9a4c3e-8d7f-4f5e-9a51-2f1c6c0d7e11\n  berth lifecycle --follow --name report.build --json',
    )
    .action(async (options: LifecycleOptions, self: Command) => {
      if (options.follow === true && options.limit !== undefined) {
        throw new UsageError(
          '--limit sizes one page; --follow prints every event until Ctrl-C: give one of them',
        );
      }
      await withSession(cli, self, async ({ driver, out, globals }) => {
        const filters: Filters = defined({
          queue: options.queue,
          name: options.name,
          jobId: options.job,
          tenantId: globals.tenant,
        });
        try {
          if (options.follow === true) {
            await follow(driver, out, cli, filters, options);
          } else {
            await onePage(driver, out, filters, options);
          }
        } catch (error) {
          throw forLifecycleRead(error);
        }
      });
    });
}

/** One page: a table and the `--from` to read on, or `{ events, next?, caughtUp }`. */
async function onePage(
  driver: Driver,
  out: Output,
  filters: Filters,
  options: LifecycleOptions,
): Promise<void> {
  const from = options.from ?? 'start';
  const after = from === 'start' ? undefined : from === 'end' ? await driver.lifecycle.end() : from;
  const page = await driver.lifecycle.read({
    ...filters,
    ...defined({ after, limit: options.limit }),
  });
  if (out.json) {
    out.document({ events: page.events, ...defined({ next: page.next }), caughtUp: page.caughtUp });
    return;
  }
  if (page.events.length === 0) out.line('no lifecycle events match');
  else {
    const now = driver.clock.now();
    out.table(
      LIFECYCLE_HEAD,
      page.events.map((event) => lifecycleRow(event, now, out.color)),
    );
  }
  // A read examines at most LIFECYCLE_READ_SCAN events, so an empty page may still have more.
  if (!page.caughtUp && page.next !== undefined) {
    out.line(out.color.dim(`more: add --from ${escapeLine(page.next)}`));
  }
}

/** Prints each event as it happens (JSON Lines with --json) until SIGINT, SIGTERM or a closed pipe. */
async function follow(
  driver: Driver,
  out: Output,
  cli: Cli,
  filters: Filters,
  options: LifecycleOptions,
): Promise<void> {
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  // A reader that left (`| head`) would otherwise leave the tail running for good.
  cli.io.stdout.once('error', interrupt);
  try {
    // The end is taken before the note, so whatever happens once the note is out is printed.
    const from =
      options.from === undefined || options.from === 'end'
        ? ((await driver.lifecycle.end()) ?? 'start')
        : options.from;
    if (!out.json) {
      const where = from === 'start' ? 'the oldest event kept' : `after ${escapeLine(from)}`;
      out.note(out.errColor.dim(`following lifecycle events ${where}; Ctrl-C stops`));
    }
    const events: AsyncGenerator<LifecycleEvent> = tailLifecycle(driver, {
      ...filters,
      from,
      pollMs: options.interval,
      signal: stop.signal,
    });
    for await (const event of events) {
      if (out.json) out.document(event);
      else out.line(lifecycleLineText(event, out.color));
    }
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    cli.io.stdout.off('error', interrupt);
  }
}

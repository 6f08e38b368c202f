import { createRequire } from 'node:module';
import { Command, Option } from 'commander';
import { registerBackfillsAct } from './commands/backfills-act.js';
import { registerBackfillsLs } from './commands/backfills-ls.js';
import { registerDashboard } from './commands/dashboard.js';
import { registerEnqueue } from './commands/enqueue.js';
import { registerEvents } from './commands/events.js';
import { registerJobsActions } from './commands/jobs-act.js';
import { registerJobsLogs } from './commands/jobs-logs.js';
import { registerJobsLs } from './commands/jobs-ls.js';
import { registerJobsShow } from './commands/jobs-show.js';
import { registerLifecycle } from './commands/lifecycle.js';
import { registerMigrate } from './commands/migrate.js';
import { registerOutbox } from './commands/outbox.js';
import { registerPurge } from './commands/purge.js';
import { registerQueues } from './commands/queues.js';
import { registerSchedulesAct } from './commands/schedules-act.js';
import { registerSchedulesLs } from './commands/schedules-ls.js';
import { registerStats } from './commands/stats.js';
import type { Cli } from './session.js';
import { screenTenant } from './tenancy.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

const OVERVIEW = `
Connection: --url (or BERTH_URL) picks the driver by scheme: postgres:// or postgresql://
(@berth/driver-pg), redis:// or rediss:// (@berth/driver-redis), nats:// (@berth/driver-nats).

Exit codes: 0 done; 1 refused (the error's code and fix are printed); 2 usage error, or a bulk
change without --yes where no terminal can confirm it (nothing is sent).
--tenant scopes the jobs, backfills and schedules commands, lifecycle, purge, enqueue and
dashboard; the others refuse it.
Durations: 250ms, 10s, 5m, 2h, 7d, 1w (or 1h30m).
With --json every command prints one JSON document on stdout, and errors as JSON on stderr.

Examples:
  berth migrate --url postgres://postgres@127.0.0.1:5432/app
  berth jobs ls --state dead
  berth jobs retry --state dead --name email.send --yes
  berth stats --watch
  berth lifecycle --follow --queue emails
  berth queues pause emails
  berth backfills ls --status running
  berth schedules upsert nightly-report --cron '0 3 * * *' --job report.build`;

/**
 * The whole command tree. Settings given to the program before its commands are added
 * (exit override, output, help) are inherited by every command.
 */
export function createProgram(
  cli: Cli,
  write: { out(text: string): void; err(text: string): void },
): Command {
  const program = new Command('berth')
    .description(
      'operate a Berth job queue: migrate, inspect, retry, cancel, promote, purge, enqueue, pause, backfill, schedule',
    )
    .version(version, '-v, --version')
    .exitOverride()
    .configureOutput({ writeOut: write.out, writeErr: write.err })
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .showHelpAfterError('(add --help for usage)')
    .addOption(new Option('--url <url>', 'where the queue is').env('BERTH_URL'))
    .addOption(
      new Option('--schema <schema>', 'postgres: the schema Berth lives in (default berth)').env(
        'BERTH_SCHEMA',
      ),
    )
    .addOption(
      new Option(
        '--prefix <prefix>',
        'redis, nats: the prefix naming the queue (default berth)',
      ).env('BERTH_PREFIX'),
    )
    .addOption(
      new Option(
        '--cursor-secret <secret>',
        'the cursorSecret the deployment signs list cursors with (when it sets one)',
      ).env('BERTH_CURSOR_SECRET'),
    )
    .option('--tenant <id>', 'act as this tenant; a command that cannot scope to one refuses it')
    .option('--json', 'print one JSON document on stdout (errors as JSON on stderr)')
    .addHelpText('after', OVERVIEW)
    // Every command, including ones added later, passes here before its action opens a driver.
    .hook('preAction', (_program, command) => screenTenant(command));

  registerMigrate(program, cli);
  const jobs = program
    .command('jobs')
    .description('list, show, retry, cancel, promote and delete jobs');
  registerJobsLs(jobs, cli);
  registerJobsShow(jobs, cli);
  registerJobsLogs(jobs, cli);
  registerJobsActions(jobs, cli);
  registerLifecycle(program, cli);
  registerStats(program, cli);
  registerPurge(program, cli);
  registerQueues(program, cli);
  registerEvents(program, cli);
  const backfills = program
    .command('backfills')
    .description('list backfill runs, start one by name, and pause, resume or cancel it');
  registerBackfillsLs(backfills, cli);
  registerBackfillsAct(backfills, cli);
  const schedules = program
    .command('schedules')
    .description(
      'list, show, store, pause, resume and remove the cron schedules the driver stores',
    );
  registerSchedulesLs(schedules, cli);
  registerSchedulesAct(schedules, cli);
  registerOutbox(program, cli);
  registerEnqueue(program, cli);
  registerDashboard(program, cli);
  return program;
}

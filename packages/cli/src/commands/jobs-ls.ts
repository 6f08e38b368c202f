import type { JobRecord, JobState } from '@berth/core';
import { type Command, Option } from 'commander';
import { limitArg, stateArg } from '../args.js';
import { JOB_HEAD, jobRow } from '../render.js';
import { type Cli, defined, withSession } from '../session.js';

interface LsOptions {
  readonly state?: JobState;
  readonly queue?: string;
  readonly name?: string;
  readonly limit?: number;
  readonly after?: string;
  readonly all?: boolean;
}

export function registerJobsLs(jobs: Command, cli: Cli): void {
  jobs
    .command('ls')
    .description('list jobs, newest first, one page at a time')
    .addOption(
      new Option('--state <state>', 'only jobs in this (effective) state').argParser(stateArg),
    )
    .option('--queue <queue>', 'only jobs of this queue')
    .option('--name <name>', 'only jobs of this name')
    .addOption(
      new Option('--limit <n>', 'jobs per page, 1 to 500 (default 50)').argParser(limitArg),
    )
    .option('--after <cursor>', 'the page after this cursor (printed under each page)')
    .option('--all', 'walk every page from here to the oldest job')
    .addHelpText(
      'after',
      '\nExamples:\n  berth jobs ls --state dead --name email.send\n  berth jobs ls --json --all',
    )
    .action(async (options: LsOptions, command: Command) => {
      await withSession(cli, command, async ({ driver, out, globals }) => {
        const filter = defined({
          state: options.state,
          queue: options.queue,
          name: options.name,
          tenantId: globals.tenant,
          limit: options.limit,
        });
        const jobs: JobRecord[] = [];
        let after = options.after;
        let next: string | undefined;
        do {
          const page = await driver.list({ ...filter, ...defined({ after }) });
          jobs.push(...page.jobs);
          next = page.next;
          after = next;
        } while (options.all === true && next !== undefined);

        if (out.json) {
          out.document({ jobs, ...defined({ next }) });
          return;
        }
        if (jobs.length === 0) {
          out.line('no jobs match');
          return;
        }
        const now = driver.clock.now();
        out.table(
          JOB_HEAD,
          jobs.map((job) => jobRow(job, now, out.color)),
        );
        if (next !== undefined) out.line(out.color.dim(`more: add --after ${next} (or --all)`));
      });
    });
}

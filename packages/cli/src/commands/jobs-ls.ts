import type { JobRecord, JobState } from '@berth/core';
import { type Command, Option } from 'commander';
import { limitArg, stateArg } from '../args.js';
import { UsageError } from '../errors.js';
import { escapeLine } from '../escape.js';
import { JOB_HEAD, jobRow } from '../render.js';
import { type Cli, defined, withSession } from '../session.js';
import { honoursTenant } from '../tenancy.js';

interface LsOptions {
  readonly state?: JobState;
  readonly queue?: string;
  readonly name?: string;
  readonly limit?: number;
  readonly after?: string;
  readonly before?: string;
  readonly all?: boolean;
}

export function registerJobsLs(jobs: Command, cli: Cli): void {
  const command = jobs.command('ls');
  honoursTenant(command, "lists only that tenant's jobs")
    .description('list jobs, newest first, one page at a time')
    .addOption(
      new Option('--state <state>', 'only jobs in this (effective) state').argParser(stateArg),
    )
    .option('--queue <queue>', 'only jobs of this queue')
    .option('--name <name>', 'only jobs of this name')
    .addOption(
      new Option('--limit <n>', 'jobs per page, 1 to 500 (default 50)').argParser(limitArg),
    )
    .option('--after <cursor>', 'the page after (older than) this cursor, printed under a page')
    .option('--before <cursor>', 'the page before (newer than) this cursor, printed under a page')
    .option('--all', 'walk every page from here to the oldest job')
    .addHelpText(
      'after',
      '\nExamples:\n  berth jobs ls --state dead --name email.send\n  berth jobs ls --json --all\n  berth jobs ls --limit 20 --before <cursor>',
    )
    .action(async (options: LsOptions, self: Command) => {
      if (options.before !== undefined && (options.after !== undefined || options.all === true)) {
        throw new UsageError(
          '--before walks toward newer jobs, one page: give it without --after or --all',
        );
      }
      await withSession(cli, self, async ({ driver, out, globals }) => {
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
        let prev: string | undefined;
        let first = true;
        do {
          const page = await driver.list({
            ...filter,
            ...defined({ after, before: options.before }),
          });
          jobs.push(...page.jobs);
          // The newer side of what is shown is the first page's.
          if (first) prev = page.prev;
          first = false;
          next = page.next;
          after = next;
        } while (options.all === true && next !== undefined);

        if (out.json) {
          out.document({ jobs, ...defined({ next, prev }) });
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
        if (prev !== undefined) out.line(out.color.dim(`newer: add --before ${escapeLine(prev)}`));
        if (next !== undefined)
          out.line(out.color.dim(`more: add --after ${escapeLine(next)} (or --all)`));
      });
    });
}

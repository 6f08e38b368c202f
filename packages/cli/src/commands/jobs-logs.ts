import { setTimeout as sleep } from 'node:timers/promises';
import { TERMINAL_STATES } from '@berth/core';
import { jobNotFound } from '@berth/core/driver';
import { type Command, Option } from 'commander';
import { integerArg, positiveDurationArg } from '../args.js';
import { logLineText, readJobLogs } from '../job-logs.js';
import { type Cli, withSession } from '../session.js';
import { honoursTenant } from '../tenancy.js';

interface LogsOptions {
  readonly after: number;
  readonly follow?: boolean;
  readonly interval: number;
}

export function registerJobsLogs(jobs: Command, cli: Cli): void {
  const command = jobs.command('logs');
  honoursTenant(command, "reads only that tenant's job")
    .description("one job's log lines (what its handlers wrote with ctx.log), oldest first")
    .argument('<id>', 'the job id')
    .addOption(
      new Option('--after <seq>', 'only lines after this seq')
        .argParser(integerArg(0, 1_000_000))
        .default(0),
    )
    .option('--follow', 'keep printing new lines until the job settles (or Ctrl-C)')
    .addOption(
      new Option('--interval <duration>', 'how often --follow looks for new lines')
        .argParser(positiveDurationArg)
        .default(1_000, '1s'),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  berth jobs logs 0b9a4c3e-8d7f-4f5e-9a51-2f1c6c0d7e11\n  berth jobs logs 0b9a4c3e-8d7f-4f5e-9a51-2f1c6c0d7e11 --follow --json',
    )
    .action(async (id: string, options: LogsOptions, command: Command) => {
      await withSession(cli, command, async ({ driver, out, byId }) => {
        if (options.follow !== true) {
          const logs = await readJobLogs(driver, id, byId, options.after);
          if (out.json) out.document(logs);
          else for (const line of logs.lines) out.line(logLineText(line, out.color));
          return;
        }
        const stop = new AbortController();
        const interrupt = () => stop.abort();
        process.once('SIGINT', interrupt);
        process.once('SIGTERM', interrupt);
        try {
          let after = options.after;
          for (;;) {
            // Read the state first: lines written before it settled are all in the read after.
            const job = await driver.get(id, byId);
            if (job === undefined) throw jobNotFound(id);
            const { lines } = await readJobLogs(driver, id, byId, after);
            // With --json, one line per document (JSON Lines).
            for (const line of lines)
              out.json ? out.document(line) : out.line(logLineText(line, out.color));
            after = lines.at(-1)?.seq ?? after;
            if (TERMINAL_STATES.has(job.state)) return;
            const waited = await sleep(options.interval, true, { signal: stop.signal }).catch(
              () => false,
            );
            if (!waited) return;
          }
        } finally {
          process.off('SIGINT', interrupt);
          process.off('SIGTERM', interrupt);
        }
      });
    });
}

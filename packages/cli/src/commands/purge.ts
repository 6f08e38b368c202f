import { DEFAULT_PURGE_LIMIT, type JobState, MAX_PURGE_LIMIT, TERMINAL_STATES } from '@berth/core';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { durationArg, integerArg, statesArg } from '../args.js';
import { confirmMany } from '../confirm.js';
import { formatSpan } from '../duration.js';
import { type Cli, withSession } from '../session.js';

function terminalStatesArg(value: string): JobState[] {
  const states = statesArg(value);
  const live = states.filter((state) => !TERMINAL_STATES.has(state));
  if (live.length > 0) {
    throw new InvalidArgumentError(
      `${live.join(', ')} is live work; only completed, failed, dead and cancelled jobs are purged`,
    );
  }
  return states;
}

export function registerPurge(program: Command, cli: Cli): void {
  program
    .command('purge')
    .description('delete settled jobs (and their steps) that finished longer ago than a duration')
    .addOption(
      new Option('--states <states>', 'comma-separated: completed, failed, dead, cancelled')
        .argParser(terminalStatesArg)
        .makeOptionMandatory(),
    )
    .addOption(
      new Option('--older-than <duration>', 'finished longer ago than this, e.g. 7d')
        .argParser(durationArg)
        .makeOptionMandatory(),
    )
    .addOption(
      new Option('--batch-size <n>', 'rows one purge call removes; calls repeat until done')
        .argParser(integerArg(1, MAX_PURGE_LIMIT))
        .default(DEFAULT_PURGE_LIMIT),
    )
    .option('-y, --yes', 'purge without asking')
    .addHelpText(
      'after',
      '\nExample:\n  berth purge --states completed,cancelled --older-than 7d --yes',
    )
    .action(
      async (
        options: { states: JobState[]; olderThan: number; batchSize: number; yes?: boolean },
        command: Command,
      ) => {
        await withSession(cli, command, async ({ driver, out }) => {
          const olderThan = driver.clock.now() - options.olderThan;
          const what = `${options.states.join(', ')} jobs that finished before ${new Date(olderThan).toISOString()}`;
          await confirmMany({
            io: cli.io,
            argv: cli.argv,
            yes: options.yes === true,
            change: { action: 'purge' },
            question: `purge ${what} (${formatSpan(options.olderThan)} ago)?`,
          });
          // Each call is bounded; a call that removes a whole batch may have left more behind.
          const limit = options.batchSize;
          let purged = 0;
          for (;;) {
            const removed = await driver.purge({ states: options.states, olderThan, limit });
            purged += removed;
            if (removed < limit) break;
          }
          if (out.json) out.document({ purged, states: options.states, olderThan });
          else out.line(`purged ${purged} ${what}`);
        });
      },
    );
}

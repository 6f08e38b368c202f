import { DEFAULT_PURGE_LIMIT, type JobState, MAX_PURGE_LIMIT, TERMINAL_STATES } from '@berth/core';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { durationArg, integerArg, statesArg } from '../args.js';
import { confirmMany, refuseUnconfirmable } from '../confirm.js';
import { formatSpan } from '../duration.js';
import { escapeLine } from '../escape.js';
import { type Cli, defined, withSession } from '../session.js';
import { honoursTenant } from '../tenancy.js';
import { narrowed, type PurgeFilter, purgeAll, purgeIds, selectPurge } from './purge-select.js';

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

/** `counts` as `key n, key n`, keys escaped (queue names come from the queue). */
const tally = (counts: Readonly<Record<string, number>>): string =>
  Object.entries(counts)
    .map(([key, count]) => `${escapeLine(key)} ${count}`)
    .join(', ');

/** The purge in words, every operator-given name escaped. */
function describePurge(filter: PurgeFilter): string {
  const parts = [`${filter.states.join(', ')} jobs`];
  if (filter.queue !== undefined) parts.push(`on queue ${escapeLine(filter.queue)}`);
  if (filter.name !== undefined) parts.push(`named ${escapeLine(filter.name)}`);
  if (filter.tenantId !== undefined) parts.push(`of tenant ${escapeLine(filter.tenantId)}`);
  parts.push(`that finished before ${new Date(filter.olderThan).toISOString()}`);
  return parts.join(' ');
}

interface PurgeOptions {
  readonly states: JobState[];
  readonly olderThan: number;
  readonly batchSize: number;
  readonly queue?: string;
  readonly name?: string;
  readonly dryRun?: boolean;
  readonly yes?: boolean;
}

export function registerPurge(program: Command, cli: Cli): void {
  const command = program
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
    .option('--queue <queue>', 'only jobs of this queue')
    .option('--name <name>', 'only jobs of this name')
    .option('--dry-run', 'print how many jobs (per state and queue) would go; delete nothing')
    .option('-y, --yes', 'purge without asking')
    .addHelpText(
      'after',
      '\nExamples:\n  berth purge --states completed,cancelled --older-than 7d --yes\n  berth purge --states dead --older-than 30d --queue mail --name email.send --dry-run\n  berth purge --states dead --older-than 30d --tenant acme --yes',
    );
  honoursTenant(command, "purges only that tenant's jobs").action(
    async (options: PurgeOptions, self: Command) => {
      const dryRun = options.dryRun === true;
      const yes = options.yes === true;
      const confirmable = { io: cli.io, argv: cli.argv, yes, change: { action: 'purge' } };
      // A dry run changes nothing, so it needs no confirmation; anything else is refused here,
      // before the driver opens, when no terminal can answer.
      if (!dryRun) refuseUnconfirmable(confirmable);
      await withSession(cli, self, async ({ driver, out, globals }) => {
        const filter: PurgeFilter = {
          states: options.states,
          olderThan: driver.clock.now() - options.olderThan,
          queue: options.queue,
          name: options.name,
          tenantId: globals.tenant,
        };
        const what = describePurge(filter);
        const echo = {
          states: options.states,
          olderThan: filter.olderThan,
          ...defined({ queue: options.queue, name: options.name, tenant: globals.tenant }),
        };
        // Without --yes the prompt names a count, and what is then removed is what was counted.
        const selection =
          dryRun || !yes || narrowed(filter)
            ? await selectPurge(driver, filter, !dryRun)
            : undefined;
        if (dryRun && selection !== undefined) {
          const { count } = selection;
          if (out.json) {
            out.document({
              dryRun: true,
              wouldPurge: count,
              byState: selection.byState,
              byQueue: selection.byQueue,
              ...echo,
            });
          } else if (count === 0) out.line(`would purge 0 ${what}`);
          else
            out.line(
              `would purge ${count} ${what}: ${tally(selection.byState)}; queues ${tally(selection.byQueue)}`,
            );
          return;
        }
        if (!yes && selection !== undefined && selection.count > 0) {
          await confirmMany({
            ...confirmable,
            change: { action: 'purge', count: selection.count },
            question: `purge ${selection.count} ${what} (${formatSpan(options.olderThan)} ago)?`,
          });
        }
        const purged =
          selection === undefined
            ? await purgeAll(driver, filter, options.batchSize)
            : await purgeIds(driver, filter, selection.ids, options.batchSize);
        if (out.json) out.document({ purged, ...echo });
        else out.line(`purged ${purged} ${what}`);
      });
    },
  );
}

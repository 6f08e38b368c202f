import {
  DEFAULT_PURGE_LIMIT,
  type Driver,
  type JobState,
  MAX_JOB_PAGE,
  MAX_PURGE_LIMIT,
  TERMINAL_STATES,
} from '@berth/core';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { durationArg, integerArg, statesArg } from '../args.js';
import { confirmMany, refuseUnconfirmable } from '../confirm.js';
import { formatSpan } from '../duration.js';
import { escapeLine } from '../escape.js';
import { type Cli, defined, withSession } from '../session.js';
import { honoursTenant } from '../tenancy.js';

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

interface Purge {
  readonly states: readonly JobState[];
  readonly olderThan: number;
  readonly batchSize: number;
}

/** Every matching row, in bounded calls: one that removes a whole batch may have left more. */
async function purgeAll(driver: Driver, purge: Purge): Promise<number> {
  let purged = 0;
  for (;;) {
    const removed = await driver.purge({ ...purge, limit: purge.batchSize });
    purged += removed;
    if (removed < purge.batchSize) return purged;
  }
}

/**
 * One tenant's matching rows. `purge` has no tenant filter but takes ids, so the tenant's
 * settled jobs are found through its list pages first (ids taken before anything is removed),
 * then removed by id; the states and age still apply to each id, so a job requeued meanwhile stays.
 */
async function purgeTenant(driver: Driver, purge: Purge, tenantId: string): Promise<number> {
  const ids: string[] = [];
  for (const state of purge.states) {
    let after: string | undefined;
    do {
      const page = await driver.list({
        state,
        tenantId,
        limit: MAX_JOB_PAGE,
        ...defined({ after }),
      });
      for (const job of page.jobs) {
        if (job.finishedAt !== undefined && job.finishedAt < purge.olderThan) ids.push(job.id);
      }
      after = page.next;
    } while (after !== undefined);
  }
  const chunk = Math.min(MAX_JOB_PAGE, purge.batchSize);
  let purged = 0;
  for (let at = 0; at < ids.length; at += chunk) {
    const slice = ids.slice(at, at + chunk);
    purged += await driver.purge({
      states: purge.states,
      olderThan: purge.olderThan,
      ids: slice,
      limit: slice.length,
    });
  }
  return purged;
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
    .option('-y, --yes', 'purge without asking')
    .addHelpText(
      'after',
      '\nExamples:\n  berth purge --states completed,cancelled --older-than 7d --yes\n  berth purge --states dead --older-than 30d --tenant acme --yes',
    );
  honoursTenant(command, "purges only that tenant's jobs").action(
    async (
      options: { states: JobState[]; olderThan: number; batchSize: number; yes?: boolean },
      self: Command,
    ) => {
      const confirmable = {
        io: cli.io,
        argv: cli.argv,
        yes: options.yes === true,
        change: { action: 'purge' },
      };
      refuseUnconfirmable(confirmable);
      await withSession(cli, self, async ({ driver, out, globals }) => {
        const olderThan = driver.clock.now() - options.olderThan;
        const tenant = globals.tenant;
        const what = `${options.states.join(', ')} jobs${tenant === undefined ? '' : ` of tenant ${escapeLine(tenant)}`} that finished before ${new Date(olderThan).toISOString()}`;
        await confirmMany({
          ...confirmable,
          question: `purge ${what} (${formatSpan(options.olderThan)} ago)?`,
        });
        const purge = { states: options.states, olderThan, batchSize: options.batchSize };
        const purged =
          tenant === undefined
            ? await purgeAll(driver, purge)
            : await purgeTenant(driver, purge, tenant);
        if (out.json)
          out.document({ purged, states: options.states, olderThan, ...defined({ tenant }) });
        else out.line(`purged ${purged} ${what}`);
      });
    },
  );
}

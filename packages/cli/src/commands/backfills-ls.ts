import {
  type BackfillListOptions,
  type BackfillStatus,
  backfillControl,
  backfillNotFound,
  MAX_BACKFILL_LIST_LIMIT,
} from '@berth/core';
import type { Command } from 'commander';
import { backfillStatusArg, integerArg } from '../args.js';
import { BACKFILL_ALIGN, BACKFILL_HEAD, backfillFields, backfillRow } from '../backfill-render.js';
import { type Cli, defined, withSession } from '../session.js';
import { honoursTenant } from '../tenancy.js';

interface LsFlags {
  readonly name?: string;
  readonly status?: BackfillStatus;
  readonly limit?: number;
}

/** `backfills ls` and `backfills show`: what the ledger holds, read only. */
export function registerBackfillsLs(backfills: Command, cli: Cli): void {
  const ls = backfills.command('ls');
  honoursTenant(ls, "lists only that tenant's runs")
    .description(
      'backfill runs, newest start first: status, rows done, passes, cursor, last error (the ledger keeps the last 50 ended runs of each backfill)',
    )
    .option('--name <name>', 'only runs of this backfill')
    .option(
      '--status <status>',
      'running, paused, completed, failed or cancelled',
      backfillStatusArg,
    )
    .option(
      '--limit <n>',
      `at most this many runs (1 to ${MAX_BACKFILL_LIST_LIMIT}, default 20)`,
      integerArg(1, MAX_BACKFILL_LIST_LIMIT),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  berth backfills ls\n  berth backfills ls --status failed --name reindex-users --json',
    )
    .action(async (flags: LsFlags, command: Command) => {
      await withSession(cli, command, async ({ driver, out, byId }) => {
        const options: BackfillListOptions = {
          ...defined({ name: flags.name, status: flags.status, limit: flags.limit }),
          ...byId,
        };
        const runs = await backfillControl(driver).list(options);
        if (out.json) {
          out.document({ runs });
          return;
        }
        if (runs.length === 0) {
          out.line('no backfill runs match');
          return;
        }
        const now = driver.clock.now();
        out.table(
          BACKFILL_HEAD,
          runs.map((run) => backfillRow(run, now, out.color)),
          BACKFILL_ALIGN,
        );
      });
    });

  const show = backfills.command('show');
  honoursTenant(show, "finds only that tenant's run")
    .description('one backfill run: every field the ledger holds, the whole cursor and last error')
    .argument('<runId>', 'the run id (berth backfills ls shows it)')
    .addHelpText(
      'after',
      '\nExample:\n  berth backfills show 0b9a4c3e-8d7f-4f5e-9a51-2f1c6c0d7e11 --json',
    )
    .action(async (runId: string, _options: object, command: Command) => {
      await withSession(cli, command, async ({ driver, out, byId }) => {
        const run = await backfillControl(driver).get(runId, byId);
        if (run === undefined) {
          throw backfillNotFound(runId);
        }
        if (out.json) out.document({ run });
        else out.fields(backfillFields(run, driver.clock.now(), out.color));
      });
    });
}

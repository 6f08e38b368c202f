import type { DeadOutboxRow } from '@berth/core';
import type { PgOutbox } from '@berth/driver-pg';
import { type Command, Option } from 'commander';
import { confirmMany } from '../confirm.js';
import { load } from '../connect.js';
import { UsageError } from '../errors.js';
import { escapeLine } from '../escape.js';
import { createOutput, type Output } from '../output.js';
import { showInstant } from '../render.js';
import type { Cli, Globals } from '../session.js';
import { refusesTenant } from '../tenancy.js';

/** The outbox holds every tenant's rows; its commands act on the whole table. */
const WHOLE_OUTBOX =
  "the outbox holds every tenant's staged rows; its commands act on the whole table, as an operator of the whole deployment";

interface OutboxFlags extends Globals {
  readonly outboxUrl?: string;
  readonly outboxSchema?: string;
  readonly yes?: boolean;
  readonly limit?: string;
}

/**
 * Opens the outbox the flags name: `--outbox-url` (else a postgres:// `--url`), in
 * `--outbox-schema` (default berth_outbox); runs `body`; closes it whatever happens.
 */
async function withOutbox(
  cli: Cli,
  command: Command,
  body: (outbox: PgOutbox, out: Output, flags: OutboxFlags) => Promise<void>,
): Promise<void> {
  const flags = command.optsWithGlobals<OutboxFlags>();
  const url =
    flags.outboxUrl ?? (/^postgres(ql)?:\/\//i.test(flags.url ?? '') ? flags.url : undefined);
  if (url === undefined) {
    throw new UsageError(
      'name the database holding the outbox: --outbox-url postgres://… (or BERTH_OUTBOX_URL); --url is used when it is a postgres:// URL',
    );
  }
  const { createPgOutbox } = await load(
    'postgres:',
    '@berth/driver-pg',
    'pg',
    () => import('@berth/driver-pg'),
  );
  const outbox = createPgOutbox({
    connectionString: url,
    ...(flags.outboxSchema === undefined ? {} : { schema: flags.outboxSchema }),
  });
  try {
    await body(outbox, createOutput(cli.io, flags.json === true), flags);
  } finally {
    await outbox.close();
  }
}

function showDead(out: Output, rows: readonly DeadOutboxRow[], now: number): void {
  if (rows.length === 0) {
    out.line('no dead rows: the queue took every row relayed so far');
    return;
  }
  out.table(
    ['ID', 'KIND', 'NAME', 'REFUSAL', 'DEAD SINCE'],
    rows.map(({ row, refusal, deadAt }) => [
      row.id,
      row.kind,
      escapeLine(row.kind === 'job' ? row.request.name : row.name),
      escapeLine(`${refusal.code ?? 'error'}: ${refusal.message}`),
      showInstant(deadAt, now),
    ]),
  );
}

/** Ids the operator named that were not dead rows: an error, after the others were acted on. */
function unmatched(named: readonly string[], done: readonly string[], verb: string): void {
  const missing = named.filter((id) => !done.includes(id));
  if (missing.length > 0) {
    throw new UsageError(`not dead rows of the outbox (nothing to ${verb}): ${missing.join(', ')}`);
  }
}

export function registerOutbox(program: Command, cli: Cli): void {
  const outbox = program
    .command('outbox')
    .description('the transactional outbox (createPgOutbox): what waits, what the queue refused')
    .addOption(
      new Option('--outbox-url <url>', 'the postgres:// database holding the outbox').env(
        'BERTH_OUTBOX_URL',
      ),
    )
    .addOption(
      new Option('--outbox-schema <schema>', 'the outbox schema (default berth_outbox)').env(
        'BERTH_OUTBOX_SCHEMA',
      ),
    );

  refusesTenant(outbox.command('stats'), WHOLE_OUTBOX)
    .description('rows waiting for a relay, rows the queue refused, and the oldest waiting row')
    .addHelpText('after', '\nExamples:\n  berth outbox stats --outbox-url "$DATABASE_URL"')
    .action(async (_options: unknown, command: Command) => {
      await withOutbox(cli, command, async (store, out) => {
        const stats = await store.stats();
        if (out.json) {
          out.document({ outbox: stats });
          return;
        }
        const oldest =
          stats.oldestStagedAt === undefined
            ? ''
            : `, oldest staged ${showInstant(stats.oldestStagedAt, Date.now())}`;
        out.line(`${stats.staged} waiting, ${stats.dead} dead${oldest}`);
      });
    });

  refusesTenant(outbox.command('dead'), WHOLE_OUTBOX)
    .description('rows the queue refused, oldest first, with the refusal')
    .option('--limit <n>', 'at most this many rows (default 100)')
    .addHelpText('after', '\nExamples:\n  berth outbox dead --outbox-url "$DATABASE_URL" --json')
    .action(async (_options: unknown, command: Command) => {
      await withOutbox(cli, command, async (store, out, flags) => {
        const limit = flags.limit === undefined ? 100 : Number(flags.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1_000) {
          throw new UsageError('--limit takes an integer from 1 to 1000');
        }
        const rows = await store.dead({ limit });
        if (out.json) out.document({ dead: rows });
        else showDead(out, rows, Date.now());
      });
    });

  refusesTenant(outbox.command('retry'), WHOLE_OUTBOX)
    .description('stage dead rows again, once what the queue refused is fixed')
    .argument('<ids...>', 'dead rows, by id')
    .addHelpText('after', '\nExamples:\n  berth outbox retry 0192f0c4-…')
    .action(async (ids: string[], _options: unknown, command: Command) => {
      await withOutbox(cli, command, async (store, out) => {
        const retried = await store.retry(ids);
        if (out.json) out.document({ retried });
        else out.line(`staged again: ${retried.length} row(s); a relay moves them next`);
        unmatched(ids, retried, 'retry');
      });
    });

  refusesTenant(outbox.command('discard'), WHOLE_OUTBOX)
    .description('remove dead rows for good (they never become jobs)')
    .argument('<ids...>', 'dead rows, by id')
    .option('--yes', 'do not ask; required without a terminal')
    .addHelpText('after', '\nExamples:\n  berth outbox discard 0192f0c4-… --yes')
    .action(async (ids: string[], _options: unknown, command: Command) => {
      const flags = command.optsWithGlobals<OutboxFlags>();
      await confirmMany({
        io: cli.io,
        argv: cli.argv,
        yes: flags.yes === true,
        change: { action: `discarding ${ids.length} dead outbox row(s)` },
        question: `discard ${ids.length} dead outbox row(s) for good?`,
      });
      await withOutbox(cli, command, async (store, out) => {
        const discarded = await store.discard(ids);
        if (out.json) out.document({ discarded });
        else out.line(`discarded: ${discarded.length} row(s)`);
        unmatched(ids, discarded, 'discard');
      });
    });
}

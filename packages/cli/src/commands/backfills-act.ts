import {
  type BackfillRun,
  backfillControl,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_QUEUE,
  type Json,
} from '@berth/core';
import type { Command } from 'commander';
import { integerArg, jsonArg } from '../args.js';
import { backfillFields } from '../backfill-render.js';
import { escapeLine } from '../escape.js';
import { showJson } from '../render.js';
import { type Cli, defined, type Session, withSession } from '../session.js';
import { honoursTenant } from '../tenancy.js';

interface StartFlags {
  readonly cursor?: Json;
  readonly queue?: string;
  readonly concurrency?: number;
  readonly maxAttempts?: number;
  readonly runId?: string;
}

/** The run after a command changed it: `{ run }`, or a line saying what happened and its fields. */
function showRun({ out, driver }: Session, run: BackfillRun, said: string): void {
  if (out.json) {
    out.document({ run });
    return;
  }
  out.line(said);
  out.fields(backfillFields(run, driver.clock.now(), out.color));
}

const named = (run: BackfillRun): string => `${escapeLine(run.runId)} (${escapeLine(run.name)})`;

type Steer = 'pause' | 'resume' | 'cancel';

const STEERS: Readonly<Record<Steer, { description: string; said: (run: BackfillRun) => string }>> =
  {
    pause: {
      description:
        'pause a running run: its runner stops once the pass in flight commits (a paused run answers as it stands)',
      said: (run) => `paused ${named(run)}: it stops after the pass in flight commits`,
    },
    resume: {
      description:
        'resume a paused run from its committed cursor with a new runner job; also a running run whose runner job is gone',
      said: (run) =>
        `resumed ${named(run)}: runner job ${escapeLine(run.jobId)} goes on from cursor ${showJson(run.cursor)}`,
    },
    cancel: {
      description:
        'cancel a running or paused run for good: a pass in flight is not counted (start a new run at its cursor to go on)',
      said: (run) => `cancelled ${named(run)} at cursor ${showJson(run.cursor)}`,
    },
  };

/** `backfills start|pause|resume|cancel`: each changes one run and prints it. */
export function registerBackfillsAct(backfills: Command, cli: Cli): void {
  const start = backfills.command('start');
  honoursTenant(start, 'starts the run, and its runner job, for that tenant')
    .description(
      "start a run of a backfill by name: stores the run and enqueues its runner job (backfill:<name>), which a worker whose jobs include the app's defineBackfill runs",
    )
    .argument('<name>', 'the backfill, as defineBackfill({ name }) names it')
    .option('--cursor <json>', 'where the first pass starts (default null: the beginning)', jsonArg)
    .option('--queue <queue>', `the runner job's queue (default ${DEFAULT_QUEUE})`)
    .option(
      '--concurrency <n>',
      'runs of this backfill allowed at once, this one counted (default 1)',
      integerArg(1, 1_000),
    )
    .option(
      '--max-attempts <n>',
      `the runner job's attempts in all: a pass failing that many times in a row fails the run (default ${DEFAULT_MAX_ATTEMPTS})`,
      integerArg(1, 1_000_000),
    )
    .option('--run-id <uuid>', 'the run id: a start retried with it answers the same run')
    .addHelpText(
      'after',
      `\nExamples:\n  berth backfills start reindex-users\n  berth backfills start reindex-users --cursor '{"id":1200}' --queue maintenance`,
    )
    .action(async (name: string, flags: StartFlags, command: Command) => {
      await withSession(cli, command, async (session) => {
        const run = await backfillControl(session.driver).start(name, {
          ...defined({
            cursor: flags.cursor,
            queue: flags.queue,
            concurrency: flags.concurrency,
            maxAttempts: flags.maxAttempts,
            runId: flags.runId,
          }),
          ...session.byId,
        });
        const queue = escapeLine(flags.queue ?? DEFAULT_QUEUE);
        const said = `started ${named(run)}: runner job ${escapeLine(run.jobId)} on queue ${queue}`;
        showRun(session, run, said);
      });
    });

  for (const [verb, steer] of Object.entries(STEERS) as [Steer, (typeof STEERS)[Steer]][]) {
    const command = backfills.command(verb);
    honoursTenant(command, `${verb}s only that tenant's run`)
      .description(steer.description)
      .argument('<runId>', 'the run id (berth backfills ls shows it)')
      .addHelpText(
        'after',
        `\nExample:\n  berth backfills ${verb} 0b9a4c3e-8d7f-4f5e-9a51-2f1c6c0d7e11`,
      )
      .action(async (runId: string, _options: object, action: Command) => {
        await withSession(cli, action, async (session) => {
          const run = await backfillControl(session.driver)[verb](runId, session.byId);
          showRun(session, run, steer.said(run));
        });
      });
  }
}

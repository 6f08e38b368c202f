import {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_QUEUE,
  type Json,
  type ScheduleRecord,
  scheduleControl,
} from '@berth/core';
import type { Command } from 'commander';
import { catchUpArg, integerArg, jsonArg } from '../args.js';
import { confirmMany } from '../confirm.js';
import { escapeLine } from '../escape.js';
import { forScheduleUpsert } from '../operator-fixes.js';
import { showInstant } from '../render.js';
import { scheduleFields } from '../schedule-render.js';
import { type Cli, defined, type Session, withSession } from '../session.js';
import { honoursTenant } from '../tenancy.js';

interface UpsertFlags {
  readonly cron: string;
  readonly job: string;
  readonly timezone?: string;
  readonly payload?: Json;
  readonly queue?: string;
  readonly priority?: number;
  readonly maxAttempts?: number;
  readonly paused?: boolean;
  readonly catchUp?: 'none' | number;
}

/** The schedule's name, and its tenant when it has one. */
const named = (name: string, tenantId: string | undefined): string =>
  tenantId === undefined
    ? escapeLine(name)
    : `${escapeLine(name)} (tenant ${escapeLine(tenantId)})`;

const namedRecord = (schedule: ScheduleRecord): string => named(schedule.name, schedule.tenantId);

/** The schedule after a command changed it: `{ schedule }`, or a line saying what happened and its fields. */
function showSchedule(
  { out, driver }: Session,
  schedule: ScheduleRecord,
  said: string,
  document: Record<string, unknown> = {},
): void {
  if (out.json) {
    out.document({ schedule, ...document });
    return;
  }
  out.line(said);
  out.fields(scheduleFields(schedule, driver.clock.now(), out.color));
}

/** `schedules upsert|pause|resume|rm`: each changes one stored schedule. */
export function registerSchedulesAct(schedules: Command, cli: Cli): void {
  const upsert = schedules.command('upsert');
  honoursTenant(upsert, 'stores the schedule for that tenant: its jobs carry the tenant')
    .description(
      'store a schedule, or change the stored one of the name: running schedulers enqueue its slots from their next tick. It states the whole schedule: a flag left out takes its default (without --paused a paused schedule resumes)',
    )
    .argument('<name>', 'the schedule name, unique per tenant')
    .requiredOption(
      '--cron <expr>',
      '5 fields, or 6 with seconds first, quoted for the shell, e.g. "0 3 * * *"',
    )
    .requiredOption('--job <jobName>', 'the job each slot enqueues, by name')
    .option('--timezone <zone>', 'the IANA zone the expression is read in (default UTC)')
    .option('--payload <json>', 'the payload of every slot, as JSON (default null)', jsonArg)
    .option('--queue <queue>', `the queue of every slot (default "${DEFAULT_QUEUE}")`)
    .option(
      '--priority <n>',
      'higher is claimed first (default 0)',
      integerArg(-2_147_483_648, 2_147_483_647),
    )
    .option(
      '--max-attempts <n>',
      `attempts before a slot's job goes dead (default ${DEFAULT_MAX_ATTEMPTS})`,
      integerArg(1, 1_000_000),
    )
    .option('--paused', 'store it paused: nothing is enqueued until berth schedules resume')
    .option(
      '--catch-up <none|n>',
      'a new schedule only: run none of its past (default), or its latest n past slots at the next tick',
      catchUpArg,
    )
    .addHelpText(
      'after',
      `\nExamples:\n  berth schedules upsert nightly-report --cron '0 3 * * *' --timezone Europe/Berlin --job report.build\n  berth schedules upsert heartbeat --cron '*/30 * * * * *' --job ping --payload '{"to":"ops"}' --queue monitoring\n\nStoring what is stored writes nothing (changed: false). A changed --cron or --timezone starts at\nits next slot after now; any other change keeps the next slot.`,
    )
    .action(async (name: string, flags: UpsertFlags, command: Command) => {
      await withSession(cli, command, async (session) => {
        const answer = await scheduleControl(session.driver)
          .upsert({
            name,
            cron: flags.cron,
            job: flags.job,
            ...defined({
              timezone: flags.timezone,
              payload: flags.payload,
              queue: flags.queue,
              priority: flags.priority,
              maxAttempts: flags.maxAttempts,
              paused: flags.paused,
              catchUp: flags.catchUp,
              tenantId: session.byId.tenantId,
            }),
          })
          .catch((error: unknown) => {
            throw forScheduleUpsert(error);
          });
        const { schedule, created, changed } = answer;
        const said = created
          ? `created schedule ${namedRecord(schedule)}: running schedulers enqueue its slots from their next tick`
          : changed
            ? `changed schedule ${namedRecord(schedule)}: now at revision ${schedule.revision}`
            : `unchanged: schedule ${namedRecord(schedule)} already says this; nothing was written`;
        showSchedule(session, schedule, said, { created, changed });
      });
    });

  const pause = schedules.command('pause');
  honoursTenant(
    pause,
    "pauses only that tenant's schedule (without it, only a schedule of no tenant)",
  )
    .description(
      'stop enqueuing the slots of a stored schedule, from the schedulers’ next tick; idempotent',
    )
    .argument('<name>', 'the schedule name (berth schedules ls lists them)')
    .addHelpText('after', '\nExample:\n  berth schedules pause nightly-report')
    .action(async (name: string, _options: object, command: Command) => {
      await withSession(cli, command, async (session) => {
        const schedule = await scheduleControl(session.driver).pause(name, session.byId);
        showSchedule(
          session,
          schedule,
          `paused ${namedRecord(schedule)}: no slot is enqueued until berth schedules resume`,
        );
      });
    });

  const resume = schedules.command('resume');
  honoursTenant(
    resume,
    "resumes only that tenant's schedule (without it, only a schedule of no tenant)",
  )
    .description(
      'enqueue the slots of a paused schedule again, from the next slot after now (the slots it was paused through are not run); idempotent',
    )
    .argument('<name>', 'the schedule name (berth schedules ls lists them)')
    .addHelpText('after', '\nExample:\n  berth schedules resume nightly-report')
    .action(async (name: string, _options: object, command: Command) => {
      await withSession(cli, command, async (session) => {
        const schedule = await scheduleControl(session.driver).resume(name, session.byId);
        const next = showInstant(schedule.nextAt, session.driver.clock.now());
        showSchedule(session, schedule, `resumed ${namedRecord(schedule)}: next slot ${next}`);
      });
    });

  const rm = schedules.command('rm');
  honoursTenant(
    rm,
    "removes only that tenant's schedule (without it, only a schedule of no tenant)",
  )
    .description(
      'remove a stored schedule for good: running schedulers enqueue none of its slots from their next tick (jobs already enqueued stay)',
    )
    .argument('<name>', 'the schedule name (berth schedules ls lists them)')
    .option('-y, --yes', 'remove it without asking; required without a terminal')
    .addHelpText('after', '\nExample:\n  berth schedules rm nightly-report --yes')
    .action(async (name: string, flags: { yes?: boolean }, command: Command) => {
      const { tenant } = command.optsWithGlobals<{ tenant?: string }>();
      // Asked before the driver is opened: without a terminal and --yes nothing is sent.
      await confirmMany({
        io: cli.io,
        argv: cli.argv,
        yes: flags.yes === true,
        change: { action: `removing schedule ${name}` },
        question: `remove schedule ${named(name, tenant)} for good?`,
      });
      await withSession(cli, command, async ({ driver, out, byId }) => {
        const removed = await scheduleControl(driver).remove(name, byId);
        if (out.json) {
          out.document({ removed });
          return;
        }
        out.line(
          removed
            ? `removed schedule ${named(name, tenant)}: running schedulers enqueue none of its slots from their next tick`
            : `no schedule ${named(name, tenant)} is stored: nothing removed`,
        );
      });
    });
}

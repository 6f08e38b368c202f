import { MAX_SCHEDULE_PAGE, scheduleControl, scheduleNotFound } from '@berth/core';
import type { Command } from 'commander';
import { integerArg } from '../args.js';
import { escapeLine } from '../escape.js';
import { forScheduleList } from '../operator-fixes.js';
import { scheduleFields, scheduleTable } from '../schedule-render.js';
import { type Cli, defined, withSession } from '../session.js';
import { honoursTenant } from '../tenancy.js';

interface LsFlags {
  readonly limit?: number;
  readonly after?: string;
}

/** `schedules ls` and `schedules show`: the schedules the driver stores, read only. */
export function registerSchedulesLs(schedules: Command, cli: Cli): void {
  const ls = schedules.command('ls');
  honoursTenant(ls, "lists only that tenant's schedules (without it, every tenant's)")
    .description(
      'stored schedules by name, one page at a time: tenant, cron and zone, job, queue, status, next slot, revision',
    )
    .option(
      '--limit <n>',
      `schedules per page (1 to ${MAX_SCHEDULE_PAGE}, default 20)`,
      integerArg(1, MAX_SCHEDULE_PAGE),
    )
    .option('--after <cursor>', 'the page after this cursor, printed under a page')
    .addHelpText(
      'after',
      '\nExamples:\n  berth schedules ls\n  berth schedules ls --tenant acme --json\n  berth schedules ls --limit 50 --after <cursor>',
    )
    .action(async (flags: LsFlags, command: Command) => {
      await withSession(cli, command, async ({ driver, out, byId }) => {
        const page = await scheduleControl(driver)
          .list({ ...defined({ limit: flags.limit, after: flags.after }), ...byId })
          .catch((error: unknown) => {
            throw forScheduleList(error);
          });
        if (out.json) {
          out.document({ schedules: page.schedules, ...defined({ next: page.next }) });
          return;
        }
        if (page.schedules.length === 0) {
          const tenant =
            byId.tenantId === undefined ? '' : ` for tenant ${escapeLine(byId.tenantId)}`;
          out.line(
            flags.after === undefined
              ? `no schedules stored${tenant}`
              : `no schedules after this cursor${tenant}`,
          );
          return;
        }
        const { head, rows, align } = scheduleTable(page.schedules, driver.clock.now(), out.color);
        out.table(head, rows, align);
        if (page.next !== undefined)
          out.line(out.color.dim(`more: add --after ${escapeLine(page.next)}`));
      });
    });

  const show = schedules.command('show');
  honoursTenant(
    show,
    "finds only that tenant's schedule (without it, only a schedule of no tenant)",
  )
    .description(
      'one stored schedule: every field, the whole payload, its next slot and revision, and the slot the schedulers last enqueued with its job',
    )
    .argument('<name>', 'the schedule name (berth schedules ls lists them)')
    .addHelpText(
      'after',
      '\nExamples:\n  berth schedules show nightly-report\n  berth schedules show nightly-report --tenant acme --json',
    )
    .action(async (name: string, _options: object, command: Command) => {
      await withSession(cli, command, async ({ driver, out, byId }) => {
        const control = scheduleControl(driver);
        const schedule = await control.get(name, byId);
        if (schedule === undefined) throw scheduleNotFound(name, byId.tenantId);
        const last = (await control.lastSlot(name, byId)) ?? null;
        if (out.json) out.document({ schedule, last });
        else out.fields(scheduleFields(schedule, driver.clock.now(), out.color, last));
      });
    });
}

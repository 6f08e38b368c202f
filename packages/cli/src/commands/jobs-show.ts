import { jobNotFound } from '@berth/core/driver';
import type { Command } from 'commander';
import { ATTEMPT_HEAD, attemptRow, attemptTitle } from '../attempts-render.js';
import { escapeBlock } from '../escape.js';
import { printJobLogs, readJobLogs } from '../job-logs.js';
import { jobFields, STEP_HEAD, stepRow } from '../render.js';
import { type Cli, withSession } from '../session.js';
import { honoursTenant } from '../tenancy.js';

export function registerJobsShow(jobs: Command, cli: Cli): void {
  const command = jobs.command('show');
  honoursTenant(command, "finds only that tenant's job")
    .description(
      'one job: its record, its attempt history, its steps in write order, its last error with stack, its log lines',
    )
    .argument('<id>', 'the job id')
    .addHelpText(
      'after',
      '\nExample:\n  berth jobs show 0b9a4c3e-8d7f-4f5e-9a51-2f1c6c0d7e11 --json',
    )
    .action(async (id: string, _options: object, command: Command) => {
      await withSession(cli, command, async ({ driver, out, byId }) => {
        const job = await driver.get(id, byId);
        if (job === undefined) throw jobNotFound(id);
        const steps = await driver.steps.list(job.runId);
        // Purged between the two reads: the job's history went with it.
        const attempts = (await driver.attempts.list(id, byId)) ?? { records: [], dropped: 0 };
        const logs = await readJobLogs(driver, id, byId);
        if (out.json) {
          out.document({ job, attempts, steps, logs });
          return;
        }
        const now = driver.clock.now();
        out.fields(jobFields(job, now, out.color));
        if (job.lastError !== undefined) {
          out.line();
          out.line(out.color.bold('last error'));
          const { code, message, stack } = job.lastError;
          out.line(out.color.red(escapeBlock(`${code ?? 'Error'}: ${message}`)));
          if (stack !== undefined) out.line(out.color.dim(escapeBlock(stack)));
        }
        printJobLogs(out, logs);
        out.line();
        if (attempts.records.length === 0) {
          out.line(out.color.dim('no attempts ended yet'));
        } else {
          out.line(out.color.bold(attemptTitle(attempts.records.length, attempts.dropped)));
          out.table(
            ATTEMPT_HEAD,
            attempts.records.map((record) => attemptRow(record, now, out.color)),
            ['right', 'right'],
          );
        }
        out.line();
        if (steps.length === 0) {
          out.line(out.color.dim('no steps'));
          return;
        }
        out.line(out.color.bold(`steps (${steps.length}, in write order)`));
        out.table(
          STEP_HEAD,
          steps.map((step, index) => stepRow(step, index, now, out.color)),
          ['right'],
        );
      });
    });
}

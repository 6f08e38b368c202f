import { jobNotFound } from '@berth/core';
import type { Command } from 'commander';
import { escapeBlock } from '../escape.js';
import { jobFields, STEP_HEAD, stepRow } from '../render.js';
import { type Cli, withSession } from '../session.js';
import { honoursTenant } from '../tenancy.js';

export function registerJobsShow(jobs: Command, cli: Cli): void {
  const command = jobs.command('show');
  honoursTenant(command, "finds only that tenant's job")
    .description('one job: its record, its steps in write order, its last error with stack')
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
        if (out.json) {
          out.document({ job, steps });
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

import { configInvalid } from '../../errors/refusals.js';

/** A valid value of each schedule field, for the example in a CONFIG_INVALID fix. */
const SAMPLES: Readonly<Record<string, string>> = {
  name: "'nightly-report'",
  cron: "'0 3 * * *'",
  timezone: "'Europe/Berlin'",
  job: 'report',
  queue: "'reports'",
  priority: '0',
  maxAttempts: '3',
  tenantId: "'acme'",
  payload: "{ scope: 'daily' }",
};

/** One schedule with `field` set to a valid value (and the fields every schedule has). */
function scheduleExample(field: string): string {
  const fields = new Map([
    ['name', SAMPLES.name],
    ['cron', SAMPLES.cron],
    ['job', SAMPLES.job],
  ]);
  fields.set(field, SAMPLES[field] ?? '...');
  const body = [...fields].map(([key, value]) => `${key}: ${value}`).join(', ');
  return `createScheduler({ driver, schedules: [{ ${body} }] })`;
}

/** A refused field of `schedules[i]` (`at`): the fix shows one schedule with it set. */
export const refuseSchedule = (at: string, field: string, reason: string, allowed: string) =>
  configInvalid({ option: `${at}.${field}`, reason, allowed, example: scheduleExample(field) });

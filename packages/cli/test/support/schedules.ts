/** The arguments of `berth schedules upsert` the schedule tests store: a nightly report in Berlin. */
export const NIGHTLY = [
  'nightly-report',
  '--cron',
  '0 3 * * *',
  '--timezone',
  'Europe/Berlin',
  '--job',
  'report.build',
  '--payload',
  '{"format":"pdf"}',
  '--queue',
  'reports',
];

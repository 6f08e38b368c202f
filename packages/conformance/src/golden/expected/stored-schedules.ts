import type { Transcript } from '../transcript.js';

const nightly = {
  name: 'nightly',
  cron: '0 3 * * *',
  job: 'report',
  queue: 'reports',
  payload: { scope: 'd' },
  paused: false,
  nextAt: '+60000',
  revision: 1,
  createdAt: '+0',
  updatedAt: '+0',
};
const acme = {
  name: 'nightly',
  tenantId: 'acme',
  cron: '0 3 * * *',
  job: 'report',
  queue: 'reports',
  payload: { scope: 'a' },
  paused: false,
  nextAt: '+30000',
  revision: 1,
  createdAt: '+1000',
  updatedAt: '+1000',
};
const hourly = {
  name: 'hourly',
  cron: '0 * * * *',
  job: 'ping',
  payload: null,
  paused: true,
  nextAt: '+0',
  revision: 1,
  createdAt: '+1000',
  updatedAt: '+1000',
};
const weekly = {
  ...nightly,
  payload: { scope: 'w' },
  nextAt: '+45000',
  revision: 2,
  updatedAt: '+1000',
};

export const storedSchedules: Transcript = [
  { op: 'put nightly', answer: nightly },
  { op: 'put nightly again (a retried lost answer)', answer: '(none)' },
  { op: 'advance 1000ms', answer: '+1000' },
  { op: 'put nightly as tenant acme', answer: acme },
  { op: 'put hourly paused', answer: hourly },
  { op: 'update nightly at revision 1', answer: weekly },
  { op: 'due up to +30000', answer: [acme] },
  { op: 'due up to +60000', answer: [acme, weekly] },
  { op: 'list 2', answer: { schedules: [hourly, weekly], next: 'cursor' } },
  { op: 'list after it', answer: { schedules: [acme] } },
  { op: 'list tenant acme', answer: { schedules: [acme] } },
  { op: 'get nightly as tenant zeta', answer: '(none)' },
  { op: 'remove nightly at revision 1 (stale)', answer: false },
  { op: 'remove nightly at revision 2', answer: true },
  { op: 'get nightly', answer: '(none)' },
  { op: 'due up to +30000', answer: [acme] },
  {
    op: 'put a 4-field cron',
    answer: {
      error: { code: 'JOB_INVALID', meta: { field: 'cron', reason: '"0 3 * *" has 4 fields' } },
    },
  },
];

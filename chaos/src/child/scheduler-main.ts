// A scheduler process: one every-second cron; tells its parent when it leads.

import { createScheduler } from '@berth/core';
import { openLedger } from '../ledger/write.ts';
import { CATCH_UP_SLOTS, CRON_SCHEDULE, chaosJobs } from './jobs.ts';
import { type ChildMessage, type ChildSpec, openDriver } from './spec.ts';

const spec = JSON.parse(process.argv[2] ?? '{}') as ChildSpec;
const tell = (message: ChildMessage) => process.send?.(message);
const jobs = chaosJobs(openLedger(spec.ledgerDir));
const driver = openDriver(spec.backend, spec.url);
const scheduler = createScheduler({
  driver,
  schedules: [{ name: CRON_SCHEDULE, cron: '* * * * * *', job: jobs.cron }],
  catchUp: { maxSlots: CATCH_UP_SLOTS },
  leaseTtlMs: spec.leaseMs,
  tickMs: 200,
  leaseName: 'chaos.scheduler',
});

let leading = false;
setInterval(() => {
  if (scheduler.isLeader() === leading) return;
  leading = scheduler.isLeader();
  tell({ type: 'leader', leader: leading });
}, 50);

// The parent is gone (it died or gave up): nobody will read this process's work, so it ends.
process.once('disconnect', () => process.exit(1));

process.once('SIGTERM', () => {
  scheduler
    .stop()
    .then(() => driver.close())
    .finally(() => process.exit(0));
});

async function start(): Promise<void> {
  for (;;) {
    try {
      await scheduler.start();
      tell({ type: 'ready' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
void start();

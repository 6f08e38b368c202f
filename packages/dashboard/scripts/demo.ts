// A dashboard over a seeded memory driver, to try the page by hand: `pnpm --filter @berth/dashboard demo`.
import { createMemoryDriver } from '@berth/driver-memory';
import { serveDashboard } from '../src/index.js';
import { seedEveryState } from '../test/support/seed.js';

const driver = createMemoryDriver();
await seedEveryState(driver);
const served = await serveDashboard({
  driver,
  port: Number(process.env.PORT ?? 4100),
  schedules: [{ name: 'nightly-digest', cron: '0 3 * * *', job: 'email.digest', queue: 'emails' }],
});
console.log(`dashboard at ${served.url}`);

import { createMemoryDriver } from '@berth/driver-memory';
import { serveDashboard } from '../src/index.js';
import { seedEveryState } from '../test/support/seed.js';

// A dashboard over a seeded memory driver, for trying the page by hand.
const driver = createMemoryDriver();
await seedEveryState(driver);
const served = await serveDashboard({
  driver,
  port: Number(process.env.PORT ?? 4100),
  schedules: [{ name: 'nightly-digest', cron: '0 3 * * *', job: 'email.digest', queue: 'emails' }],
});
console.log(`dashboard at ${served.url}`);

// Berth's quickstart: a worker on the in-memory driver runs a handful of real jobs — durable
// steps, a sleep, a retry after a thrown error, and a scheduled job — printing what happens as
// it happens, then stops everything and exits by itself.
import { createClient, createScheduler, createWorker, defineJob } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';

const started = Date.now();
const say = (line: string) => {
  const elapsed = String(Date.now() - started).padStart(5, ' ');
  process.stdout.write(`[${elapsed} ms] ${line}\n`);
};

const driver = createMemoryDriver();

const signup = defineJob({
  name: 'signup',
  async run({ payload, step }) {
    const { email } = payload as { email: string };
    const account = await step.run('create-account', () => {
      say(`signup: created the account for ${email}`);
      return { accountId: `acct_${email.split('@')[0]}` };
    });
    // The job is parked, not held: the worker runs other jobs meanwhile.
    await step.sleep('let-them-look-around', 1_500);
    await step.run('send-welcome', () => {
      say(`signup: sent the welcome mail to ${email} (${account.accountId})`);
    });
    return account;
  },
});

let chargeAttempts = 0;
const charge = defineJob({
  name: 'charge',
  retry: { maxAttempts: 3, backoff: { initialMs: 200 } },
  async run({ payload, attempt }) {
    chargeAttempts += 1;
    const { cents } = payload as { cents: number };
    if (attempt === 1) {
      say(`charge: attempt ${attempt} — the card gateway timed out, throwing`);
      throw new Error('card gateway timed out');
    }
    say(`charge: attempt ${attempt} — charged ${cents} cents`);
    return { charged: cents };
  },
});

const report = defineJob({
  name: 'report',
  async run({ job }) {
    say(`report: the scheduled report ran for slot ${job.idempotencyKey ?? '?'}`);
  },
});

const jobs = [signup, charge, report];
const client = createClient({ driver, jobs });
const worker = createWorker({
  driver,
  jobs,
  concurrency: 4,
  visibilityTimeoutMs: 30_000,
  pollIntervalMs: 100,
});
const scheduler = createScheduler({
  driver,
  // Every second: the quickstart runs its first slot and stops the scheduler after it.
  schedules: [{ name: 'every-second-report', cron: '* * * * * *', job: report, payload: null }],
  catchUp: { maxSlots: 0 },
  tickMs: 250,
});

// Done once each kind of job has completed once.
const completed = new Set<string>();
let finish = (): void => {};
const allSettled = new Promise<void>((resolve) => {
  finish = resolve;
});
worker.on('completed', ({ job }) => {
  say(`worker: ${job.name} completed`);
  if (job.name === 'report') void scheduler.stop();
  completed.add(job.name);
  if (jobs.every((definition) => completed.has(definition.name))) finish();
});
worker.on('retrying', ({ job, retryAt }) =>
  say(`worker: ${job.name} will be retried in ${retryAt - Date.now()} ms`),
);
worker.on('suspended', ({ job, until, reason }) => {
  if (reason === 'step')
    say(`worker: ${job.name} parked for ${until - Date.now()} ms, worker slot freed`);
});
worker.on('failed', ({ job }) => say(`worker: ${job.name} failed`));
worker.on('dead', ({ job }) => say(`worker: ${job.name} is dead`));

await worker.start();
await scheduler.start();
say('worker and scheduler started on the memory driver');

await client.enqueue(signup, { email: 'ada@example.com' });
say('enqueued signup (steps and a 1.5 s sleep)');
await client.enqueue(charge, { cents: 4_200 });
say('enqueued charge (fails once, then succeeds)');

const deadline = setTimeout(() => {
  say('gave up: the jobs did not settle within 20 s');
  process.exit(1);
}, 20_000);
await allSettled;
clearTimeout(deadline);

await scheduler.stop();
await worker.stop({ graceMs: 1_000 });
await driver.close();
say(`done: ${completed.size} jobs completed (charge took ${chargeAttempts} attempts); exiting`);

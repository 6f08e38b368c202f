import type { Driver, JobError, JobRecord } from '@berth/core';

/** A payload that would run script if the page ever rendered it as HTML. */
export const HOSTILE_PAYLOAD = {
  html: '<script>window.__berthPwned = true</script><img src=x onerror="window.__berthPwned = true">',
};

export const WORKER = 'seed-worker';
const LEASE_MS = 60_000;
const HOUR = 3_600_000;

/** What `seedEveryState` made, by what the tests look for. */
export interface Seeded {
  readonly completed: readonly string[];
  readonly ready: string;
  readonly delayed: string;
  readonly running: string;
  readonly suspended: string;
  readonly failed: string;
  readonly cancelled: string;
  /** Dead with two steps and an error with a stack. */
  readonly withSteps: string;
  readonly declined: readonly string[];
  readonly timedOut: readonly string[];
  readonly hostile: string;
  readonly tenantJobs: readonly string[];
}

/** Claims the one ready job of `queue` (the seed keeps it that way) and settles it. */
async function claimOne(driver: Driver, queue: string) {
  const [job] = await driver.claim({
    queues: [queue],
    workerId: WORKER,
    visibilityTimeoutMs: LEASE_MS,
  });
  if (job === undefined) throw new Error(`seed: nothing to claim in ${queue}`);
  return { job, fence: { jobId: job.id, workerId: WORKER, claim: job.claim } };
}

async function dead(driver: Driver, queue: string, name: string, error: JobError) {
  const { id } = await driver.enqueue({ name, queue, payload: { order: name }, maxAttempts: 1 });
  const { fence } = await claimOne(driver, queue);
  await driver.nack(fence, { error, final: true });
  return id;
}

/**
 * Jobs in every state, two dead-letter causes, a run with steps, a hostile payload, a tenant's
 * jobs and some events. Jobs that need a claim are made first, one at a time, so each claim
 * takes exactly the job just enqueued.
 */
export async function seedEveryState(driver: Driver): Promise<Seeded> {
  const now = driver.clock.now();
  const made = await driver.enqueueMany(
    Array.from({ length: 30 }, (_, index) => ({
      name: 'email.send',
      queue: 'emails',
      payload: { to: `user${index}@example.com` },
    })),
  );
  const claimed = await driver.claim({
    queues: ['emails'],
    limit: 30,
    workerId: WORKER,
    visibilityTimeoutMs: LEASE_MS,
  });
  await driver.ackMany(
    claimed.map((job) => ({
      fence: { jobId: job.id, workerId: WORKER, claim: job.claim },
      result: { sent: true },
    })),
  );

  const failedId = (await driver.enqueue({ name: 'email.bounce', queue: 'emails' })).id;
  await driver.nack((await claimOne(driver, 'emails')).fence, {
    error: { code: 'BOUNCED', message: 'mailbox full' },
    final: true,
    deadLetter: false,
  });
  const running = (await driver.enqueue({ name: 'report.build', queue: 'reports' })).id;
  await claimOne(driver, 'reports');
  const suspended = (await driver.enqueue({ name: 'order.await-payment', queue: 'orders' })).id;
  await driver.suspend((await claimOne(driver, 'orders')).fence, {
    until: now + HOUR,
    waitFor: 'payment.confirmed',
  });

  const withSteps = (
    await driver.enqueue({
      name: 'invoice.charge',
      queue: 'billing',
      payload: { invoice: 'inv_42' },
      maxAttempts: 1,
    })
  ).id;
  const charge = await claimOne(driver, 'billing');
  const step = (name: string, status: 'completed' | 'failed', extra: object) => ({
    runId: charge.job.runId,
    name,
    status,
    attempts: 1,
    startedAt: driver.clock.now(),
    updatedAt: driver.clock.now(),
    ...extra,
  });
  await driver.steps.put(
    step('fetch-customer', 'completed', { output: { customer: 7 } }),
    charge.fence,
  );
  await driver.steps.put(
    step('charge-card', 'failed', { error: { code: 'CARD_DECLINED', message: 'declined' } }),
    charge.fence,
  );
  await driver.nack(charge.fence, {
    error: {
      code: 'CARD_DECLINED',
      message: 'card declined for order 9001 (customer 7)',
      stack: 'Error: card declined for order 9001 (customer 7)\n    at charge (billing.ts:42:11)',
    },
    final: true,
  });
  const declined = [withSteps];
  for (const order of [1001, 1002]) {
    declined.push(
      await dead(driver, 'billing', 'invoice.charge', {
        code: 'CARD_DECLINED',
        message: `card declined for order ${order} (customer ${order + 7})`,
      }),
    );
  }
  const timedOut: string[] = [];
  for (const ms of [30_012, 30_407]) {
    timedOut.push(
      await dead(driver, 'billing', 'invoice.charge', {
        code: 'UPSTREAM_TIMEOUT',
        message: `https://payments.example/charge timed out after ${ms} ms`,
      }),
    );
  }

  const tenantJobs = (
    await driver.enqueueMany([
      { name: 'email.send', queue: 'emails', tenantId: 'acme', payload: { to: 'a@acme.test' } },
      { name: 'email.send', queue: 'emails', tenantId: 'acme', payload: { to: 'b@acme.test' } },
    ])
  ).map((answer) => answer.id);
  const cancelled = (await driver.enqueue({ name: 'email.digest', queue: 'emails' })).id;
  await driver.cancel(cancelled);
  const delayed = (
    await driver.enqueue({ name: 'email.reminder', queue: 'emails', runAt: now + HOUR })
  ).id;
  const ready = (await driver.enqueue({ name: 'email.send', queue: 'emails', priority: 1 })).id;
  const hostile = (
    await driver.enqueue({ name: 'xss.probe', queue: 'emails', payload: HOSTILE_PAYLOAD })
  ).id;

  for (const n of [1, 2]) await driver.events.publish('payment.settled', { order: n });
  await driver.events.publish('user.signed-up', { user: 'ada' });

  return {
    completed: made.map((answer) => answer.id),
    ready,
    delayed,
    running,
    suspended,
    failed: failedId,
    cancelled,
    withSteps,
    declined,
    timedOut,
    hostile,
    tenantJobs,
  };
}

export async function mustGet(driver: Driver, id: string): Promise<JobRecord> {
  const job = await driver.get(id);
  if (job === undefined) throw new Error(`expected job ${id}`);
  return job;
}

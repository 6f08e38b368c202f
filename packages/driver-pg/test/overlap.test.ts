import { expect, it } from 'vitest';
import { adminPool, openPgDriver } from './pg-factory.js';
import { blockedOn, openSession, settled } from './sessions.js';

const HOUR = 3_600_000;
const claimOne = { queues: ['default'], limit: 1, workerId: 'w', visibilityTimeoutMs: 60_000 };

/** A running job: its fence for suspend. */
async function running(driver: Awaited<ReturnType<typeof openPgDriver>>['driver'], name: string) {
  const { id } = await driver.enqueue({ name });
  const [job] = await driver.claim(claimOne);
  if (job?.id !== id) throw new Error('the job was not claimed');
  return { jobId: id, workerId: 'w', claim: job.claim };
}

it('a suspend that overlaps a publish made inside an app transaction sees its event once the app commits', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  const app = await openSession(schema);
  try {
    const fence = await running(driver, 'waiter');
    const since = Date.now() - 1_000;
    await app.client.query('BEGIN');
    await app.driver.events.publish('order.paid', { order: 1 });
    const suspend = driver.suspend(fence, {
      until: Date.now() + HOUR,
      waitFor: 'order.paid',
      eventsSince: since,
    });
    // The suspend waits for the app's transaction, which holds the event name's lock.
    await blockedOn('suspend_job', settled(suspend));
    await app.client.query('COMMIT');
    expect(await suspend).toBe(true);

    const [resumed] = await driver.claim(claimOne);
    expect(resumed?.id).toBe(fence.jobId);
    expect(resumed?.resumed).toBe(true);
  } finally {
    await app.close();
    await dispose();
  }
});

it('a suspend that overlaps a publish delayed behind a locked waiter row is woken by that publish', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  const locker = await (await adminPool()).connect();
  const { rows } = await locker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const lockerPid = rows[0]?.pid ?? 0;
  try {
    const first = await running(driver, 'first');
    expect(await driver.suspend(first, { until: Date.now() + HOUR, waitFor: 'ship' })).toBe(true);
    const second = await running(driver, 'second');
    const since = Date.now() - 1_000;

    // Another transaction holds the first waiter's row, so publish stops at its wake-up.
    await locker.query('BEGIN');
    await locker.query(`SELECT 1 FROM "${schema}".jobs WHERE id = $1 FOR UPDATE`, [first.jobId]);
    const publish = driver.events.publish('ship', {});
    await blockedOn('publish_event', settled(publish), [lockerPid]);
    const suspend = driver.suspend(second, {
      until: Date.now() + HOUR,
      waitFor: 'ship',
      eventsSince: since,
    });
    await blockedOn('suspend_job', settled(suspend));
    await locker.query('COMMIT');
    await publish;
    expect(await suspend).toBe(true);

    const woken = await driver.claim({ ...claimOne, limit: 10 });
    expect(woken.map((job) => job.id).sort()).toEqual([first.jobId, second.jobId].sort());
  } finally {
    await locker.query('ROLLBACK');
    locker.release();
    await dispose();
  }
});

it('publish wakes every waiter of its event, more than one statement batch of them', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  try {
    const waiters = 2_500;
    for (let start = 0; start < waiters; start += 500) {
      await driver.enqueueMany(Array.from({ length: 500 }, () => ({ name: 'wait' })));
    }
    // Waiting rows as suspend leaves them, made in one statement.
    await (await adminPool()).query(
      `UPDATE "${schema}".jobs SET state = 'suspended', wait_for = 'go', run_at = $1`,
      [Date.now() + HOUR],
    );
    await driver.events.publish('go', {});
    const stats = await driver.stats();
    expect(stats[0]?.counts.ready).toBe(waiters);
    expect(stats[0]?.counts.suspended).toBe(0);
  } finally {
    await dispose();
  }
});

import { createManualClock, createScheduler, type Driver, slotJobId } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventsResponse, SchedulesResponse } from '../src/index.js';
import { getApi, startDashboard, type TestDashboard } from './support/server.js';

const T0 = Date.UTC(2026, 5, 1, 12, 30, 0);
const HOUR = 3_600_000;
const schedules = [
  { name: 'hourly-report', cron: '0 * * * *', job: { name: 'report.build', queue: 'reports' } },
  { name: 'nightly', cron: '0 3 * * *', timezone: 'Europe/Paris', job: 'digest.send' },
];

let driver: Driver;
let served: TestDashboard | undefined;

beforeEach(() => {
  driver = createMemoryDriver({ clock: createManualClock(T0) });
});
afterEach(async () => {
  await served?.close();
  served = undefined;
  await driver.close();
});

describe('GET /api/schedules', () => {
  it('lists each schedule with its next slots and the job its last slot made, and the leader', async () => {
    // Each schedule runs its latest past slot on this first lead: the slot `last` shows.
    const scheduler = createScheduler({
      driver,
      schedules,
      holderId: 'node-a',
      catchUp: { neverRun: 1 },
    });
    await scheduler.tick();
    served = await startDashboard({ driver, schedules });
    const { status, body } = await getApi<SchedulesResponse>(served.base, '/schedules');
    expect(status).toBe(200);
    expect(body.configured).toBe(true);
    expect(body.leaseName).toBe('berth.scheduler');
    expect(body.leader).toEqual({ holder: 'node-a', expiresAt: T0 + 30_000 });
    const [hourly, nightly] = body.schedules;
    expect(hourly).toMatchObject({
      name: 'hourly-report',
      timezone: 'UTC',
      job: 'report.build',
      queue: 'reports',
      next: [T0 + HOUR / 2, T0 + (3 * HOUR) / 2, T0 + (5 * HOUR) / 2],
      last: {
        slot: T0 - HOUR / 2,
        jobId: slotJobId('hourly-report', T0 - HOUR / 2),
        state: 'ready',
      },
    });
    // 03:00 in Paris is 01:00 UTC in June.
    expect(nightly?.next[0]).toBe(Date.UTC(2026, 5, 2, 1, 0, 0));
    expect(nightly?.last).toMatchObject({ slot: Date.UTC(2026, 5, 1, 1, 0, 0), state: 'ready' });
    await scheduler.stop();
    const after = await getApi<SchedulesResponse>(served.base, '/schedules');
    expect(after.body.leader).toBeNull();
  });

  it('takes the scheduler’s own options, for its lease name; without schedules it says so', async () => {
    await driver.leases.acquire('jobs.leader', 'node-b', 10_000);
    served = await startDashboard({ driver, schedules: { schedules, leaseName: 'jobs.leader' } });
    const named = await getApi<SchedulesResponse>(served.base, '/schedules');
    expect(named.body).toMatchObject({ leaseName: 'jobs.leader', leader: { holder: 'node-b' } });
    expect(named.body.schedules[0]?.last?.state).toBeNull();
    await served.close();
    served = await startDashboard({ driver });
    const none = await getApi<SchedulesResponse>(served.base, '/schedules');
    expect(none.body).toMatchObject({ configured: false, schedules: [] });
  });

  it('reports a schedule whose cron cannot be read instead of failing the page', async () => {
    served = await startDashboard({
      driver,
      schedules: [{ name: 'broken', cron: 'every tuesday', job: 'x' }],
    });
    const { status, body } = await getApi<SchedulesResponse>(served.base, '/schedules');
    expect(status).toBe(200);
    expect(body.schedules[0]).toMatchObject({ name: 'broken', next: [], last: null });
    expect(body.schedules[0]?.error).toBeTypeOf('string');
  });
});

describe('GET /api/events', () => {
  it('answers live events newest first, counted by name, and filters by name', async () => {
    await driver.events.publish('payment.settled', { order: 1 });
    await driver.events.publish('user.signed-up', { user: 'ada' });
    await driver.events.publish('payment.settled', { order: 2 });
    served = await startDashboard({ driver });
    const all = await getApi<EventsResponse>(served.base, '/events');
    expect(all.body.events.map((event) => event.payload)).toEqual([
      { order: 2 },
      { user: 'ada' },
      { order: 1 },
    ]);
    expect(all.body.names).toEqual([
      { name: 'payment.settled', count: 2, last: T0 },
      { name: 'user.signed-up', count: 1, last: T0 },
    ]);
    expect(all.body).toMatchObject({ name: null, total: 3, limit: 200 });
    const named = await getApi<EventsResponse>(served.base, '/events?name=user.signed-up');
    expect(named.body.events.map((event) => event.name)).toEqual(['user.signed-up']);
  });

  it('shows the newest 200 of a larger store and says how many there are', async () => {
    for (let n = 0; n < 205; n += 1) await driver.events.publish('tick', { n });
    served = await startDashboard({ driver });
    const { body } = await getApi<EventsResponse>(served.base, '/events');
    expect(body.total).toBe(205);
    expect(body.events).toHaveLength(200);
    expect(body.events[0]?.payload).toEqual({ n: 204 });
  });
});

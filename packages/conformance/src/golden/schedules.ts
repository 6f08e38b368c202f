import type { GoldenScenario } from './transcript.js';

const nightly = (nextAt: number, payload: { scope: string }) => ({
  name: 'nightly',
  cron: '0 3 * * *',
  job: 'report',
  queue: 'reports',
  payload,
  paused: false,
  nextAt,
});

export const storedSchedules: GoldenScenario = {
  name: 'stored-schedules',
  asserts:
    'put creates at revision 1 and lands only at the stored revision (a retried lost answer meets the next one); one name per tenant; due skips paused and later schedules, by nextAt; list walks by name then tenant in pages; a stale remove lands nothing; bad cron and cursors are refused',
  async play({ driver, answer, refusal, advance, t0 }) {
    await answer('put nightly', () =>
      driver.schedules.put(nightly(t0 + 60_000, { scope: 'd' }), 0),
    );
    await answer('put nightly again (a retried lost answer)', () =>
      driver.schedules.put(nightly(t0 + 60_000, { scope: 'd' }), 0),
    );
    await advance(1_000);
    await answer('put nightly as tenant acme', () =>
      driver.schedules.put({ ...nightly(t0 + 30_000, { scope: 'a' }), tenantId: 'acme' }, 0),
    );
    await answer('put hourly paused', () =>
      driver.schedules.put(
        { name: 'hourly', cron: '0 * * * *', job: 'ping', payload: null, paused: true, nextAt: t0 },
        0,
      ),
    );
    await answer('update nightly at revision 1', () =>
      driver.schedules.put(nightly(t0 + 45_000, { scope: 'w' }), 1),
    );
    await answer('due up to +30000', () => driver.schedules.due(t0 + 30_000, 10));
    await answer('due up to +60000', () => driver.schedules.due(t0 + 60_000, 10));
    const page = await answer('list 2', () => driver.schedules.list({ limit: 2 }));
    await answer('list after it', () =>
      driver.schedules.list({ limit: 2, ...(page.next === undefined ? {} : { after: page.next }) }),
    );
    await answer('list tenant acme', () => driver.schedules.list({ tenantId: 'acme' }));
    await answer('get nightly as tenant zeta', () =>
      driver.schedules.get('nightly', { tenantId: 'zeta' }),
    );
    await answer('remove nightly at revision 1 (stale)', () =>
      driver.schedules.remove('nightly', 1),
    );
    await answer('remove nightly at revision 2', () => driver.schedules.remove('nightly', 2));
    await answer('get nightly', () => driver.schedules.get('nightly'));
    await answer('due up to +30000', () => driver.schedules.due(t0 + 30_000, 10));
    await refusal('put a 4-field cron', () =>
      driver.schedules.put({ ...nightly(t0, { scope: 'd' }), cron: '0 3 * *' }, 0),
    );
  },
};

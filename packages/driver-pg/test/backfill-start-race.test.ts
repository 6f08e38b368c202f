import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPgDriver } from './pg-factory.js';
import { blockedOn, openSession, type Session, settled } from './sessions.js';

/**
 * A start's check of the active runs and its insert are one change: a start racing another of
 * the same name waits for it (start_backfill's advisory lock) and then reads what it committed.
 * The racer here holds its start in an open transaction, so the race is certain, not likely.
 */
describe('pg backfill start racing an uncommitted start', () => {
  let opened: Awaited<ReturnType<typeof openPgDriver>>;
  let holder: Session;
  let racer: Session;

  beforeEach(async () => {
    opened = await openPgDriver();
    holder = await openSession(opened.schema);
    racer = await openSession(opened.schema);
    await holder.client.query('BEGIN');
  });

  afterEach(async () => {
    await holder.client.query('ROLLBACK').catch(() => {});
    await holder.close();
    await racer.close();
    await opened.dispose();
  });

  const request = (name: string, tenantId?: string) => ({
    runId: randomUUID(),
    jobId: randomUUID(),
    name,
    ...(tenantId === undefined ? {} : { tenantId }),
  });

  it('a start of the same name waits for the uncommitted one, then answers its run as the active one', async () => {
    const first = await holder.driver.backfills.start(request('reindex', 'acme'));
    if (!first.started) throw new Error('the first start was refused');
    const second = racer.driver.backfills.start(request('reindex', 'acme'));
    const finished = settled(second);
    expect(await blockedOn('start_backfill', finished, [holder.pid])).toBeDefined();
    await holder.client.query('COMMIT');
    expect(await second).toEqual({ started: false, active: [first.run] });
    expect(await opened.driver.backfills.list({ name: 'reindex' })).toHaveLength(1);
  });

  it('a start of the same name after the uncommitted one rolled back starts', async () => {
    await holder.driver.backfills.start(request('reindex'));
    const second = racer.driver.backfills.start(request('reindex'));
    expect(await blockedOn('start_backfill', settled(second), [holder.pid])).toBeDefined();
    await holder.client.query('ROLLBACK');
    expect((await second).started).toBe(true);
  });

  it('starts of another name, or of the same name for another tenant, do not wait', async () => {
    await holder.driver.backfills.start(request('reindex', 'acme'));
    expect((await racer.driver.backfills.start(request('other', 'acme'))).started).toBe(true);
    expect((await racer.driver.backfills.start(request('reindex'))).started).toBe(true);
    expect((await racer.driver.backfills.start(request('reindex', 'beta'))).started).toBe(true);
  });
});

import type { ClaimedJob } from '@berth/core';
import { expect, it } from 'vitest';
import { statements } from '../src/sql/index.js';
import { adminPool, openPgDriver } from './pg-factory.js';

it('extendMany probes jobs by its unique id index per item and never scans the table', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  try {
    const running: ClaimedJob[] = [];
    for (let batch = 0; batch < 5; batch += 1) {
      await driver.enqueueMany(Array.from({ length: 1_000 }, () => ({ name: 'x', queue: 'q' })));
      const request = { queues: ['q'], workerId: 'w', visibilityTimeoutMs: 60_000, limit: 1_000 };
      running.push(...(await driver.claim(request)));
    }
    // One worker's timer renews a few of its jobs while thousands of others run.
    const renewed = running.slice(0, 20);
    const admin = await adminPool();
    await admin.query(`ANALYZE "${schema}".jobs`);
    const sql = statements(`"${schema}"`);
    const { rows } = await admin.query(`EXPLAIN (FORMAT JSON) ${sql.extendMany.extendMany}`, [
      renewed.map((job) => job.id),
      renewed.map(() => 'w'),
      renewed.map((job) => job.claim),
      Date.now(),
      60_000,
    ]);
    const shown = JSON.stringify(rows);
    expect(shown).toContain('jobs_id_key');
    expect(shown).not.toContain('jobs_lease_idx');
    expect(shown).not.toContain('Seq Scan');
  } finally {
    await dispose();
  }
});

import type { ClaimedJob } from '@berth/core';
import { expect, it } from 'vitest';
import { statements } from '../src/sql/index.js';
import { adminPool, openPgDriver } from './pg-factory.js';

const REQUEST = { queues: ['q'], workerId: 'w', visibilityTimeoutMs: 60_000, limit: 1_000 };

for (const [when, analyzeFirst] of [
  ['after an ANALYZE that saw thousands of running rows', false],
  ['after an ANALYZE that saw no running row', true],
] as const) {
  it(`extendMany probes jobs by its unique id index per item and never scans the table, ${when}`, async () => {
    const { driver, schema, dispose } = await openPgDriver();
    try {
      const admin = await adminPool();
      for (let batch = 0; batch < 5; batch += 1) {
        await driver.enqueueMany(Array.from({ length: 1_000 }, () => ({ name: 'x', queue: 'q' })));
      }
      if (analyzeFirst) await admin.query(`ANALYZE "${schema}".jobs`);
      const running: ClaimedJob[] = [];
      for (let batch = 0; batch < 5; batch += 1) running.push(...(await driver.claim(REQUEST)));
      if (!analyzeFirst) await admin.query(`ANALYZE "${schema}".jobs`);
      // One worker's timer renews a few of its jobs while thousands of others run.
      const renewed = running.slice(0, 20);
      const sql = statements(`"${schema}"`);
      const { rows } = await admin.query(`EXPLAIN (FORMAT JSON) ${sql.extendMany.extendMany}`, [
        renewed.map((job) => job.id),
        renewed.map(() => 'w'),
        renewed.map((job) => job.claim),
        Date.now(),
        60_000,
      ]);
      const shown = JSON.stringify(rows);
      // The unique index on id: jobs_id_key, or jobs_id_pkey once id is the primary key.
      expect(shown).toMatch(/"Index Name":"jobs_id_(key|pkey)"/);
      expect(shown).not.toContain('jobs_lease_idx');
      expect(shown).not.toContain('Seq Scan');
      expect(
        await driver.extendMany(
          renewed.map((job) => ({ jobId: job.id, workerId: 'w', claim: job.claim })),
          60_000,
        ),
      ).toEqual(renewed.map(() => true));
    } finally {
      await dispose();
    }
  });
}

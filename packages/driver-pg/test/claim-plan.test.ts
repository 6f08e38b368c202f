import { expect, it } from 'vitest';
import { statements } from '../src/sql/index.js';
import { adminPool, openPgDriver } from './pg-factory.js';

const plan = async (text: string, values: unknown[]) => {
  const admin = await adminPool();
  const { rows } = await admin.query(`EXPLAIN (FORMAT JSON) ${text}`, values);
  return JSON.stringify(rows);
};

it('a claim walks jobs_ready_idx in claim order, reads due rows from jobs_due_idx and reads lapsed leases from jobs_lapse_idx, sorting no backlog', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  try {
    for (let batch = 0; batch < 5; batch += 1) {
      await driver.enqueueMany(
        Array.from({ length: 1_000 }, (_, n) => ({
          name: 'x',
          queue: `q${n % 2}`,
          priority: n % 4,
        })),
      );
    }
    await (await adminPool()).query(`ANALYZE "${schema}".jobs`);
    const sql = statements(`"${schema}"`);
    const shown = await plan(sql.claim.claim, [
      ['q0', 'q1'],
      Date.now(),
      10,
      'w',
      1_000,
      [],
      '{}',
      null,
    ]);
    expect(shown).toContain('jobs_ready_idx');
    expect(shown).toContain('jobs_due_idx');
    expect(shown).toContain('jobs_lapse_idx');
    expect(shown).not.toContain('Seq Scan');
  } finally {
    await dispose();
  }
});

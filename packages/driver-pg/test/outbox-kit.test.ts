import { describeOutboxStore } from '@berth/conformance';
import { defineJob } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { createPgOutbox } from '../src/index.js';
import { dropSchema, freshSchema } from './pg-factory.js';

const kitJob = defineJob<{ n: number }>({ name: 'kit.outbox', run: async () => {} });

describeOutboxStore('pg', async () => {
  const pool = new pg.Pool({ connectionString: await serverUrl('pg'), max: 6 });
  const schema = freshSchema();
  const outbox = createPgOutbox({ pool, schema });
  await outbox.migrate();
  /** Runs `work` in one committed transaction on a connection of its own. */
  const committed = async <T>(work: (tx: pg.PoolClient) => Promise<T>): Promise<T> => {
    const tx = await pool.connect();
    try {
      await tx.query('BEGIN');
      const answer = await work(tx);
      await tx.query('COMMIT');
      return answer;
    } finally {
      tx.release();
    }
  };
  return {
    store: outbox.store,
    admin: outbox,
    stageJobs: (count) =>
      committed(async (tx) => {
        const ids: string[] = [];
        for (let n = 0; n < count; n += 1) ids.push((await outbox.stage(tx, kitJob, { n })).id);
        return ids;
      }),
    stageEvent: (name) => committed(async (tx) => (await outbox.publish(tx, name, {})).id),
    dispose: async () => {
      await outbox.close();
      await pool.end();
      await dropSchema(schema);
    },
  };
});

import { createRedisDriver } from '@berth/driver-redis';
import { describe, expect, it } from 'vitest';
import { berth, berthJson, errorDoc } from './support/berth.js';
import { deleteCases } from './support/delete-cases.js';
import { operatorCases } from './support/operator-cases.js';
import { purgeCases } from './support/purge-cases.js';
import { redisTarget } from './support/targets.js';

describe('berth on Redis', () => {
  it('migrate says redis has nothing to migrate and exits 0, once the server answers', async () => {
    const target = await redisTarget();
    try {
      const said = await berth(['migrate'], { env: target.env });
      expect(said).toMatchObject({
        code: 0,
        stdout: 'redis keeps no schema: nothing to migrate\n',
      });
      expect((await berthJson(['migrate', '--status', ...target.flags])).doc).toEqual({
        driver: 'redis',
        applied: [],
        pending: [],
      });
    } finally {
      await target.dispose();
    }
    // A server that does not answer is no "nothing to migrate".
    const down = await berth(['migrate', '--url', 'redis://127.0.0.1:1', '--json']);
    expect(down.code).toBe(1);
    expect(errorDoc(down)).toMatchObject({
      code: 'DRIVER_UNAVAILABLE',
      meta: { errorCode: 'ECONNREFUSED' },
    });
  });

  it('jobs ls --after takes a cursor the app printed under its cursorSecret only with --cursor-secret', async () => {
    const target = await redisTarget();
    const secret = 'the app cursor secret 0001';
    const app = createRedisDriver({ url: target.url, prefix: target.prefix, cursorSecret: secret });
    try {
      await app.enqueueMany([{ name: 'a' }, { name: 'a' }, { name: 'a' }]);
      const next = (await app.list({ limit: 1 })).next ?? 'missing';
      const flags = ['jobs', 'ls', '--limit', '1', '--after', next, ...target.flags];
      const refused = await berth([...flags, '--json']);
      expect(refused.code).toBe(1);
      expect(errorDoc(refused)).toMatchObject({ code: 'JOB_PAGE_INVALID' });
      const paged = await berthJson<{ jobs: unknown[] }>([...flags, '--cursor-secret', secret]);
      expect(paged.doc.jobs).toHaveLength(1);
      const byEnv = await berth([...flags, '--json'], { env: { BERTH_CURSOR_SECRET: secret } });
      expect(byEnv.code).toBe(0);
    } finally {
      await app.close();
      await target.dispose();
    }
  });

  describe('operator commands', () => {
    operatorCases(redisTarget);
  });

  describe('purge --queue, --name, --dry-run', () => {
    purgeCases(redisTarget);
  });

  describe('jobs delete', () => {
    deleteCases(redisTarget);
  });
});

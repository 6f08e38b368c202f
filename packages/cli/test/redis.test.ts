import { describe, expect, it } from 'vitest';
import { berth, berthJson, errorDoc } from './support/berth.js';
import { operatorCases } from './support/operator-cases.js';
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

  describe('operator commands', () => {
    operatorCases(redisTarget);
  });
});

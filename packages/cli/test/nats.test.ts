import { describe, expect, it } from 'vitest';
import { berth, berthJson, errorDoc } from './support/berth.js';
import { roundTrip } from './support/round-trip.js';
import { natsTarget } from './support/targets.js';

describe('berth on NATS JetStream', () => {
  it('migrate says nats has nothing to migrate and exits 0, once the server answers', async () => {
    const target = await natsTarget();
    try {
      const said = await berth(['migrate'], { env: target.env });
      expect(said).toMatchObject({ code: 0, stdout: 'nats keeps no schema: nothing to migrate\n' });
      expect((await berthJson(['migrate', ...target.flags])).doc).toEqual({
        driver: 'nats',
        applied: [],
        pending: [],
      });
    } finally {
      await target.dispose();
    }
    const down = await berth(['migrate', '--url', 'nats://127.0.0.1:1', '--json']);
    expect(down.code).toBe(1);
    expect(errorDoc(down)).toMatchObject({ code: 'DRIVER_UNAVAILABLE', meta: { driver: 'nats' } });
  });

  roundTrip(natsTarget);
});

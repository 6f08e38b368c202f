import type { MigrationStatus } from '@berth/driver-pg';
import { LATEST_VERSION } from '@berth/driver-pg';
import { describe, expect, it } from 'vitest';
import { berth, berthJson, errorDoc } from './support/berth.js';
import { commandsIn } from './support/commands.js';
import { deleteCases } from './support/delete-cases.js';
import { purgeCases } from './support/purge-cases.js';
import { roundTrip } from './support/round-trip.js';
import { pgTarget } from './support/targets.js';

describe('berth on PostgreSQL', () => {
  it('migrate brings a fresh schema to the latest version, says what ran, and --status lists applied and pending', async () => {
    const target = await pgTarget({ migrate: false });
    try {
      const pending = await berthJson<MigrationStatus>(['migrate', '--status', ...target.flags]);
      expect(pending.doc).toMatchObject({
        schema: target.schema,
        version: 0,
        applied: [],
        latest: LATEST_VERSION,
      });
      expect(pending.doc.pending.at(-1)).toBe(LATEST_VERSION);

      const migrated = await berth(['migrate'], { env: target.env });
      expect(migrated.code).toBe(0);
      expect(migrated.stdout).toBe(
        `schema ${target.schema}: applied ${pending.doc.pending.join(', ')}; now at version ${LATEST_VERSION}\n`,
      );
      const status = await berth(['migrate', '--status'], { env: target.env });
      expect(status.stdout.split('\n').slice(0, 2)).toEqual([
        `schema ${target.schema}: at version ${LATEST_VERSION} of ${LATEST_VERSION}, 0 pending`,
        'VERSION  STATE    APPLIED AT',
      ]);
      expect(status.stdout).toMatch(
        new RegExp(`^ *${LATEST_VERSION}  applied  \\d{4}-\\d\\d-\\d\\dT`, 'm'),
      );
      const twice = await berthJson(['migrate', ...target.flags]);
      expect(twice.doc).toEqual({
        driver: 'pg',
        schema: target.schema,
        version: LATEST_VERSION,
        applied: [],
      });
    } finally {
      await target.dispose();
    }
  });

  it('a command on a schema nobody migrated answers DRIVER_NOT_MIGRATED, and the berth migrate its fix names makes it work', async () => {
    const target = await pgTarget({ migrate: false });
    try {
      const refused = await berth(['jobs', 'ls', ...target.flags, '--json']);
      expect(refused.code).toBe(1);
      const error = errorDoc(refused);
      expect(error).toMatchObject({ code: 'DRIVER_NOT_MIGRATED', meta: { schema: target.schema } });
      const [named] = commandsIn(error.fix);
      expect(named?.slice(0, 4)).toEqual(['migrate', '--url', '<url>', '--schema']);
      const fixed = await berth(
        (named ?? []).map((word) => (word === '<url>' ? target.url : word)),
      );
      expect(fixed.code).toBe(0);
      expect((await berthJson(['jobs', 'ls', ...target.flags])).doc).toEqual({ jobs: [] });
    } finally {
      await target.dispose();
    }
  });

  roundTrip(() => pgTarget());

  describe('jobs delete', () => {
    deleteCases(() => pgTarget());
  });

  describe('purge --queue, --name, --dry-run', () => {
    purgeCases(() => pgTarget());
  });
});

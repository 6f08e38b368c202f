import { driverNotMigrated, isBerthError } from '@berth/core/driver';
import { LATEST_VERSION } from '../sql/migrations/index.js';
import type { OpsContext } from './context.js';

/** `check()`: the applied migration version against the driver's latest, in one statement. */
export function checkOps({ db, sql, schema }: OpsContext) {
  return {
    async check(): Promise<void> {
      let version: number;
      try {
        const [row] = await db.rows<{ version: number }>(
          'check the backend',
          sql.check.version,
          [],
        );
        version = row?.version ?? 0;
      } catch (error) {
        // No migrations table (or no schema): nothing was ever migrated here.
        if (!isBerthError(error, 'DRIVER_NOT_MIGRATED')) throw error;
        version = 0;
      }
      if (version < LATEST_VERSION) {
        throw driverNotMigrated({ driver: 'pg', schema, version, required: LATEST_VERSION });
      }
    },
  };
}

import { isBerthError } from '@berth/core';
import { configFixProblem } from '@berth/test-servers';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPgDriver, type PgDriverOptions } from '../src/index.js';

const refusal = (options: PgDriverOptions): unknown => {
  try {
    createPgDriver(options);
  } catch (error) {
    return error;
  }
  throw new Error(`createPgDriver accepted ${JSON.stringify(Object.keys(options))}`);
};

describe('pg driver options', () => {
  it('every CONFIG_INVALID the constructor throws says what the option takes and shows a valid call', async () => {
    const pool = new pg.Pool();
    try {
      const bad: readonly PgDriverOptions[] = [
        { schema: 'bad-name' },
        { schema: 'x'.repeat(49) },
        { pool, connectionString: 'postgres://127.0.0.1/db' },
        { pool, executor: pool },
        { connectionString: 'mysql://root@127.0.0.1:3306/app' },
        { preparedStatements: 'yes' as unknown as boolean },
      ];
      for (const options of bad) {
        const error = refusal(options);
        expect(isBerthError(error, 'CONFIG_INVALID'), String(error)).toBe(true);
        if (!isBerthError(error, 'CONFIG_INVALID')) continue;
        expect(configFixProblem(error.meta.option, error.fix)).toBeUndefined();
      }
    } finally {
      await pool.end();
    }
  });
});

import { isBerthError } from '@berth/core';
import { configFixProblem } from '@berth/test-servers';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPgDriver, type PgDriverOptions, type PgPoolOptions } from '../src/index.js';

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
        { connectionString: 'postgres://a:5432,b:5432/db' },
        { poolOptions: { max: 0 } },
        { poolOptions: 'big' as unknown as PgPoolOptions },
        { poolOptions: { maxConnections: 5 } as unknown as PgPoolOptions },
        { pool, poolOptions: { max: 5 } },
        { pool: { max: 20 } as unknown as pg.Pool },
        { poolOptions: { keepAlive: false, keepAliveInitialDelayMs: 5_000 } },
        { connectionString: 'postgres://a,b/db' },
        { connectionString: 'postgres://h:99999/db' },
        { connectionString: 'host=localhost dbname=app' },
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

  it('a multi-host URL answers CONFIG_INVALID at construction, and the fix names a proxy or your own pg.Pool', () => {
    for (const connectionString of [
      'postgres://u:secret@a:5432,b:5432/db',
      'postgres://u:secret@a,b/db',
      'postgres://u:secret@h/db?host=a,b',
    ]) {
      const error = refusal({ connectionString });
      expect(isBerthError(error, 'CONFIG_INVALID'), String(error)).toBe(true);
      if (!isBerthError(error, 'CONFIG_INVALID')) continue;
      expect(error.meta.option).toBe('connectionString');
      expect(error.detail).toMatch(/hosts/);
      expect(error.fix).toMatch(/proxy/);
      expect(error.fix).toMatch(/pg\.Pool/);
      // The password never leaves in the error.
      expect(JSON.stringify({ ...error, message: error.message })).not.toMatch(/secret/);
    }
  });

  it('a connection string pg cannot parse answers CONFIG_INVALID at construction, never at the first call', () => {
    for (const connectionString of [
      'postgres://h:99999/db',
      'postgres://h:port/db',
      'host=localhost dbname=app',
      'localhost:5432/app',
    ]) {
      const error = refusal({ connectionString });
      expect(isBerthError(error, 'CONFIG_INVALID'), `${connectionString}: ${error}`).toBe(true);
    }
  });

  it('the connection strings pg reads are accepted: URLs, IPv6 hosts, socket paths', async () => {
    for (const connectionString of [
      'postgres://u:p@127.0.0.1:5432/test',
      'postgresql://[::1]:5432/test?sslmode=disable',
      'postgres:///test?host=/var/run/postgresql',
      'postgres://u@/test?host=/var/run/postgresql',
      'socket:/var/run/postgresql?db=test',
      '/var/run/postgresql test',
    ]) {
      await createPgDriver({ connectionString }).close();
    }
  });

  it('each bad pool option answers CONFIG_INVALID naming it, with what it takes', async () => {
    const bad: readonly [keyof PgPoolOptions, unknown][] = [
      ['max', 0],
      ['max', -1],
      ['max', 2.5],
      ['max', Number.NaN],
      ['max', '10'],
      ['keepAlive', 'yes'],
      ['keepAliveInitialDelayMs', 0],
      ['keepAliveInitialDelayMs', 1.5],
      ['connectionTimeoutMs', -1],
      ['connectionTimeoutMs', Number.POSITIVE_INFINITY],
      ['idleTimeoutMs', null],
      ['statementTimeoutMs', -5],
      ['statementTimeoutMs', 2 ** 31],
      ['idleInTransactionSessionTimeoutMs', '1min'],
      ['idleInTransactionSessionTimeoutMs', Number.NaN],
    ];
    for (const [name, value] of bad) {
      const poolOptions = { [name]: value } as PgPoolOptions;
      const error = refusal({ connectionString: 'postgres://127.0.0.1/db', poolOptions });
      expect(isBerthError(error, 'CONFIG_INVALID'), `${name}=${String(value)}: ${error}`).toBe(
        true,
      );
      if (!isBerthError(error, 'CONFIG_INVALID')) continue;
      expect(error.meta.option).toBe(`poolOptions.${name}`);
      expect(error.fix).toContain(`poolOptions.${name}`);
      expect(configFixProblem(error.meta.option, error.fix)).toBeUndefined();
    }
  });

  it("poolOptions with an app's pool or executor answers CONFIG_INVALID: the app configures those", async () => {
    const pool = new pg.Pool();
    try {
      for (const options of [
        { pool, poolOptions: { max: 5 } },
        { executor: pool, poolOptions: {} },
      ]) {
        const error = refusal(options);
        expect(isBerthError(error, 'CONFIG_INVALID'), String(error)).toBe(true);
        if (!isBerthError(error, 'CONFIG_INVALID')) continue;
        expect(error.meta.option).toBe('poolOptions');
      }
    } finally {
      await pool.end();
    }
  });
});

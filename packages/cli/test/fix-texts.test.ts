import {
  BerthError,
  type BerthErrorInput,
  configInvalid,
  errorCodeEntry,
  jobInvalid,
  jobPageInvalid,
  registeredErrorCodes,
} from '@berth/core';
import {
  driverNotMigrated,
  driverUnavailable,
  enqueueIndexDisagrees,
  jobNotFound,
} from '@berth/core/driver';
import '@berth/driver-pg';
import '@berth/driver-redis';
import { serverUrl } from '@berth/test-servers';
import { describe, expect, it } from 'vitest';
import {
  confirmationDeclined,
  confirmationRequired,
  driverNotInstalled,
  urlUnsupported,
} from '../src/errors.js';
import {
  forLifecycleRead,
  forOperator,
  forScheduleList,
  forScheduleUpsert,
} from '../src/operator-fixes.js';
import { berth, errorDoc } from './support/berth.js';
import { commandsIn, realProgram, resolveCommand } from './support/commands.js';
import { pgTarget } from './support/targets.js';

const RUN_ID = '0b9a4c3e-8d7f-4f5e-9a51-2f1c6c0d7e11';

/** The fixes the CLI writes in place of a driver's, one per option or refusal it rewrites. */
function operatorFixes(): { where: string; fix: string }[] {
  const options = ['schema', 'prefix', 'connectionString', 'url', 'servers', 'cursorSecret'];
  return [
    ...options.map((option) => ({
      where: `forOperator(${option})`,
      fix: forOperator(
        configInvalid({ option, reason: 'is bad', example: 'createPgDriver({ ... })' }),
      ).fix,
    })),
    {
      where: 'forOperator(cursor)',
      fix: forOperator(
        new BerthError({ code: 'JOB_PAGE_INVALID', detail: 'x', meta: { reason: 'cursor' } }),
      ).fix,
    },
    ...(
      [
        ['BACKFILL_RUNNING', { name: 'reindex-users', active: [RUN_ID] }],
        ['BACKFILL_NOT_FOUND', { runId: RUN_ID }],
        ['BACKFILL_NOT_ACTIVE', { runId: RUN_ID, status: 'cancelled' }],
        ['SCHEDULE_NOT_FOUND', { name: 'nightly-report', tenantId: 'acme' }],
      ] as const
    ).map(([code, meta]) => ({
      where: `forOperator(${code})`,
      fix: forOperator(new BerthError({ code, detail: 'x', meta } as BerthErrorInput)).fix,
    })),
    // What `schedules upsert` and `schedules ls` write in place of core's field and cursor fixes.
    ...['cron', 'timezone', 'name', 'job', 'payload', 'queue', 'maxAttempts', 'catchUp'].map(
      (field) => ({
        where: `forScheduleUpsert(${field})`,
        fix: (forScheduleUpsert(jobInvalid(field, 'is bad')) as BerthError).fix,
      }),
    ),
    {
      where: 'forScheduleList(cursor)',
      fix: (forScheduleList(jobPageInvalid('cursor', 'garbage')) as BerthError).fix,
    },
    // What `lifecycle` writes in place of core's position and filter fixes.
    {
      where: 'forLifecycleRead(cursor)',
      fix: (forLifecycleRead(jobPageInvalid('cursor', 'garbage')) as BerthError).fix,
    },
    ...['jobId', 'queue', 'name', 'tenantId'].map((field) => ({
      where: `forLifecycleRead(${field})`,
      fix: (forLifecycleRead(jobInvalid(field, 'is bad')) as BerthError).fix,
    })),
    ...['28P01', '28000', '3D000', '42501'].map((errorCode) => ({
      where: `forOperator(${errorCode})`,
      fix: forOperator(
        driverUnavailable({
          driver: 'pg',
          operation: 'list jobs',
          cause: Object.assign(new Error('refused'), { code: errorCode }),
        }),
      ).fix,
    })),
  ];
}

/**
 * Every fix a user can be shown: each registered code's fix (core's, the drivers', the CLI's), and
 * the fixes builders write for one throw.
 */
function everyFix(): { where: string; fix: string }[] {
  return [
    ...registeredErrorCodes().map((entry) => ({ where: entry.code, fix: entry.fix })),
    { where: 'enqueueIndexDisagrees', fix: enqueueIndexDisagrees('pg', 'email.send').fix },
    { where: 'jobNotFound', fix: jobNotFound('0b9a4c3e-8d7f-4f5e-9a51-2f1c6c0d7e11').fix },
    {
      where: 'driverNotMigrated',
      fix: driverNotMigrated({ driver: 'pg', schema: 'berth', version: 0, required: 2 }).fix,
    },
    {
      where: 'confirmationRequired',
      fix: confirmationRequired(
        { action: 'retry', count: 2 },
        'berth jobs retry --state dead --url redis://127.0.0.1:6379',
      ).fix,
    },
    { where: 'confirmationDeclined', fix: confirmationDeclined({ action: 'purge' }).fix },
    {
      where: 'driverNotInstalled',
      fix: driverNotInstalled({
        scheme: 'redis:',
        driverPackage: '@berth/driver-redis',
        missing: 'ioredis',
        peer: 'ioredis',
      }).fix,
    },
    { where: 'urlUnsupported', fix: urlUnsupported('mysql://x', 'mysql:').fix },
    ...operatorFixes(),
  ];
}

describe('every fix that names a berth command names one that exists', () => {
  const program = realProgram();
  const named = everyFix().flatMap(({ where, fix }) =>
    commandsIn(fix).map((tokens) => ({
      where,
      text: `berth ${tokens.join(' ')}`,
      ...resolveCommand(program, tokens),
    })),
  );

  it('the real parser accepts every command and flag a fix names', () => {
    expect(errorCodeEntry('CONFIRMATION_REQUIRED')).toBeDefined();
    // The fixes that point operators at the CLI: if none did, this test would prove nothing.
    expect(named.map((command) => command.where)).toEqual(
      expect.arrayContaining([
        'JOB_NOT_FOUND',
        'JOB_NOT_PROMOTABLE',
        'LEASE_LAPSED',
        'DRIVER_NOT_MIGRATED',
        'driverNotMigrated',
        'enqueueIndexDisagrees',
        'confirmationRequired',
        'urlUnsupported',
        'forOperator(schema)',
        'forOperator(cursor)',
        'forOperator(BACKFILL_RUNNING)',
        'forOperator(BACKFILL_NOT_ACTIVE)',
        'forOperator(SCHEDULE_NOT_FOUND)',
        'SCHEDULE_NOT_FOUND',
        'forScheduleUpsert(job)',
        'forScheduleList(cursor)',
      ]),
    );
    for (const command of named)
      expect(command.problems, `${command.where}: ${command.text}`).toEqual([]);
  });

  it('the built binary answers --help for every command a fix names', async () => {
    for (const path of new Set(named.map((command) => command.path))) {
      const ran = await berth([...path.split(' '), '--help']);
      expect(ran.code, path).toBe(0);
      expect(ran.stdout, path).toContain(`Usage: berth ${path}`);
    }
  });
});

describe('a fix shown by the CLI names its flags, not a driver option', () => {
  it('a bad --schema, --prefix or --cursor-secret names the flag and a berth command, not createXDriver', async () => {
    const cases = [
      [['--url', 'postgres://postgres@127.0.0.1:5432/test', '--schema', 'bad-schema'], '--schema'],
      [['--url', 'redis://127.0.0.1:6379', '--prefix', 'bad{prefix'], '--prefix'],
      [['--url', 'nats://127.0.0.1:4222', '--prefix', 'a.b*'], '--prefix'],
      [['--url', 'redis://127.0.0.1:6379', '--cursor-secret', 'short'], '--cursor-secret'],
    ] as const;
    for (const [flags, flag] of cases) {
      const ran = await berth(['jobs', 'ls', ...flags, '--json']);
      expect(ran.code, flags.join(' ')).toBe(1);
      const error = errorDoc(ran);
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.fix, flags.join(' ')).toMatch(
        new RegExp(`^${flag} .+; e\\.g\\. berth jobs ls ${flag} `),
      );
      expect(error.fix).not.toMatch(/create\w+Driver/);
    }
  });

  it('a cursor no page printed names --after, and a wrong database or role names --url', async () => {
    const target = await pgTarget();
    try {
      const cursor = await berth(['jobs', 'ls', '--after', 'garbage', ...target.flags, '--json']);
      expect(cursor.code).toBe(1);
      expect(errorDoc(cursor)).toMatchObject({ code: 'JOB_PAGE_INVALID' });
      expect(errorDoc(cursor).fix).toContain('--after');
      expect(errorDoc(cursor).fix).not.toContain('next/prev');
    } finally {
      await target.dispose();
    }
    const url = new URL(target.url);
    url.username = 'berth_no_such_role';
    const role = await berth(['stats', '--url', url.toString()]);
    expect(role.code).toBe(1);
    expect(role.stderr).toMatch(/^fix: the server refused the user in --url/m);
    expect(role.stderr).not.toContain('recovers by itself');

    const redis = new URL(await serverUrl('redis'));
    redis.username = 'berth_no_such_user';
    redis.password = 'wrong';
    const password = await berth(['stats', '--url', redis.toString(), '--json']);
    expect(password.code).toBe(1);
    expect(errorDoc(password).fix).toMatch(/^the server refused the username or password in --url/);

    // NATS: the client's AuthorizationError, as the driver wraps it (a private server with a
    // user is driver-nats' access-refused.test.ts).
    const nats = forOperator(
      driverUnavailable({
        driver: 'nats',
        operation: 'read stats',
        cause: Object.assign(new Error('Authorization Violation'), { name: 'AuthorizationError' }),
      }),
    );
    expect(nats.fix).toMatch(/^the server refused the user and password \(or token\) in --url/);
  });
});

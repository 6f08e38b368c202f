import {
  driverNotMigrated,
  enqueueIndexDisagrees,
  errorCodeEntry,
  jobNotFound,
  registeredErrorCodes,
} from '@berth/core';
import '@berth/driver-pg';
import '@berth/driver-redis';
import { describe, expect, it } from 'vitest';
import {
  confirmationDeclined,
  confirmationRequired,
  driverNotInstalled,
  urlUnsupported,
} from '../src/errors.js';
import { berth } from './support/berth.js';
import { commandsIn, realProgram, resolveCommand } from './support/commands.js';

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

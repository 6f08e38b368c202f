import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { tenantUseOf } from '../src/tenancy.js';
import { berth, berthJson } from './support/berth.js';
import { leafPaths, realProgram } from './support/commands.js';
import { pgTarget, redisTarget, type Target } from './support/targets.js';

const commandAt = (program: Command, path: string): Command => {
  let command = program;
  for (const name of path.split(' ')) {
    const child = command.commands.find((sub) => sub.name() === name);
    if (child === undefined) throw new Error(`no command ${path}`);
    command = child;
  }
  return command;
};

/** Two settled jobs (one cancelled, one completed) for `tenantId`. */
async function settledFor(target: Target, tenantId: string): Promise<string[]> {
  const queue = `t-${tenantId}`;
  const cancelled = await target.driver.enqueue({ name: 'report.build', queue, tenantId });
  await target.driver.cancel(cancelled.id);
  const completed = await target.driver.enqueue({ name: 'report.build', queue, tenantId });
  const [job] = await target.driver.claim({
    queues: [queue],
    workerId: 'tenancy-test',
    visibilityTimeoutMs: 60_000,
  });
  if (job === undefined) throw new Error('nothing claimed');
  await target.driver.ack({ jobId: job.id, workerId: 'tenancy-test', claim: job.claim });
  return [cancelled.id, completed.id];
}

describe('every command honours --tenant or refuses it', () => {
  it('every command that runs something declares whether it honours --tenant', () => {
    const program = realProgram();
    const undeclared = leafPaths(program).filter(
      (path) => tenantUseOf(commandAt(program, path)) === undefined,
    );
    expect(undeclared).toEqual([]);
    // The declarations say what the commands do: scoped reads and changes honour it.
    const honouring = leafPaths(program).filter(
      (path) => tenantUseOf(commandAt(program, path))?.honours === true,
    );
    expect(honouring.sort()).toEqual(
      [
        'backfills ls',
        'backfills show',
        'backfills start',
        'backfills pause',
        'backfills resume',
        'backfills cancel',
        'dashboard',
        'enqueue',
        'jobs cancel',
        'jobs delete',
        'jobs ls',
        'jobs promote',
        'jobs retry',
        'jobs show',
        'jobs logs',
        'lifecycle',
        'purge',
        'schedules ls',
        'schedules show',
        'schedules upsert',
        'schedules pause',
        'schedules resume',
        'schedules rm',
      ].sort(),
    );
  });

  it('stats, events, queues and migrate refuse --tenant as a usage error (exit 2) before any server is asked', async () => {
    // Nothing listens on port 1: a command that got as far as its driver would exit 1.
    const url = ['--url', 'redis://127.0.0.1:1'];
    for (const args of [
      ['stats'],
      ['events', 'ls'],
      ['events', 'publish', 'order.paid'],
      ['migrate'],
      ['queues', 'ls'],
      ['queues', 'pause', 'emails'],
      ['queues', 'resume', 'emails'],
    ]) {
      const ran = await berth([...args, '--tenant', 'acme', ...url]);
      expect(ran.code, args.join(' ')).toBe(2);
      expect(ran.stderr, args.join(' ')).toContain(
        `berth ${args.slice(0, 2).join(' ')} does not take --tenant`,
      );
      const json = await berth([...args, '--tenant', 'acme', ...url, '--json']);
      expect(JSON.parse(json.stderr)).toMatchObject({ name: 'UsageError', code: 'USAGE_INVALID' });
    }
  });

  for (const [kind, open] of [
    ['PostgreSQL', () => pgTarget()],
    ['Redis', () => redisTarget()],
  ] as const) {
    it(`purge --tenant removes only that tenant's settled jobs (${kind})`, async () => {
      const target = await open();
      try {
        const acme = await settledFor(target, 'acme');
        const globex = await settledFor(target, 'globex');
        const untenanted = await target.driver.enqueue({ name: 'report.build' });
        await target.driver.cancel(untenanted.id);

        const purged = await berthJson<{ purged: number; tenant: string }>([
          'purge',
          '--states',
          'completed,cancelled',
          '--older-than',
          '0s',
          '--tenant',
          'acme',
          '--batch-size',
          '1',
          '--yes',
          ...target.flags,
        ]);
        expect(purged.doc).toMatchObject({ purged: 2, tenant: 'acme' });
        for (const id of acme) expect(await target.driver.get(id)).toBeUndefined();
        for (const id of [...globex, untenanted.id])
          expect(await target.driver.get(id)).toBeDefined();

        const text = await berth([
          'purge',
          '--states',
          'cancelled',
          '--older-than',
          '0s',
          '--tenant',
          'globex',
          '--yes',
          ...target.flags,
        ]);
        expect(text.stdout).toMatch(/^purged 1 cancelled jobs of tenant globex that finished/);
        expect(await target.driver.get(globex[1] ?? '')).toBeDefined();
      } finally {
        await target.dispose();
      }
    });
  }
});

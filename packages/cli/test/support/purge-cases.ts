import type { Driver } from '@berth/core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { berth, berthJson } from './berth.js';
import type { Target } from './targets.js';

/** A job of `name` on `queue`, claimed and acked now. */
async function completed(driver: Driver, name: string, queue: string): Promise<string> {
  const { id } = await driver.enqueue({ name, queue });
  const [job] = await driver.claim({
    queues: [queue],
    workerId: 'cli-purge',
    visibilityTimeoutMs: 60_000,
  });
  if (job?.id !== id) throw new Error(`claimed ${job?.id}, not ${id}`);
  await driver.ack({ jobId: id, workerId: job.claimedBy, claim: job.claim });
  return id;
}

async function cancelled(driver: Driver, name: string, queue: string): Promise<string> {
  const { id } = await driver.enqueue({ name, queue });
  await driver.cancel(id);
  return id;
}

/** `purge --queue/--name/--dry-run` against one backend, through the CLI's `run`. */
export function purgeCases(open: () => Promise<Target>): void {
  let target: Target;
  let ids: Record<string, string>;
  beforeEach(async () => {
    target = await open();
    const { driver } = target;
    ids = {
      mailSend1: await completed(driver, 'email.send', 'mail'),
      mailSend2: await completed(driver, 'email.send', 'mail'),
      mailCancelled: await cancelled(driver, 'email.send', 'mail'),
      mailReport: await completed(driver, 'report.build', 'mail'),
      defaultSend: await completed(driver, 'email.send', 'default'),
    };
  });
  afterEach(async () => {
    await target.dispose();
  });
  const narrow = ['--states', 'completed,cancelled', '--older-than', '0s', '--queue', 'mail'];
  const left = async (): Promise<string[]> => {
    const present: string[] = [];
    for (const [key, id] of Object.entries(ids)) {
      if ((await target.driver.get(id)) !== undefined) present.push(key);
    }
    return present;
  };

  it('purge --dry-run counts per state and queue, deletes nothing, and needs no --yes on a pipe', async () => {
    const doc = await berthJson([
      'purge',
      ...narrow,
      '--name',
      'email.send',
      '--dry-run',
      ...target.flags,
    ]);
    expect(doc.doc).toMatchObject({
      dryRun: true,
      wouldPurge: 3,
      byState: { completed: 2, cancelled: 1 },
      byQueue: { mail: 3 },
      queue: 'mail',
      name: 'email.send',
    });
    const everywhere = await berthJson([
      'purge',
      '--states',
      'completed',
      '--older-than',
      '0s',
      '--dry-run',
      ...target.flags,
    ]);
    expect(everywhere.doc).toMatchObject({ wouldPurge: 4, byQueue: { mail: 3, default: 1 } });
    const text = await berth(['purge', ...narrow, '--dry-run', ...target.flags]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^would purge 4 completed, cancelled jobs on queue mail that finished before \S+: completed 3, cancelled 1; queues mail 4\n$/,
    );
    expect(await left()).toEqual(Object.keys(ids));
  });

  it('purge --queue --name removes only that queue and name', async () => {
    const purged = await berthJson([
      'purge',
      ...narrow,
      '--name',
      'email.send',
      '--batch-size',
      '2',
      '--yes',
      ...target.flags,
    ]);
    expect(purged.doc).toMatchObject({ purged: 3, queue: 'mail', name: 'email.send' });
    expect(await left()).toEqual(['mailReport', 'defaultSend']);
    const text = await berth(['purge', ...narrow, '--yes', ...target.flags]);
    expect(text.stdout).toMatch(/^purged 1 completed, cancelled jobs on queue mail that finished/);
    expect(await left()).toEqual(['defaultSend']);
  });

  it('purge echoes a --queue or --name with control characters escaped', async () => {
    const text = await berth([
      'purge',
      ...narrow,
      '--name',
      'evil\u001b]8;;http://x\u0007',
      '--dry-run',
      ...target.flags,
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('named evil\\x1b]8;;http://x\\x07 that finished');
    expect(text.stdout).not.toContain('\u001b');
  });
}

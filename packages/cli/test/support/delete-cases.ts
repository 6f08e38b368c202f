import type { JobRecord } from '@berth/core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { berth, berthJson, errorDoc } from './berth.js';
import { deadJob, type Target } from './targets.js';

/** `berth jobs delete` against one backend, through the CLI's `run`, on a fresh queue per case. */
export function deleteCases(open: () => Promise<Target>): void {
  let target: Target;
  beforeEach(async () => {
    target = await open();
  });
  afterEach(async () => {
    await target.dispose();
  });
  const run = (...args: string[]) => berth([...args, ...target.flags]);

  /** A job a worker holds now. */
  async function runningJob(name: string): Promise<string> {
    const queue = `q-running-${name}`;
    const { id } = await target.driver.enqueue({ name, queue });
    const [held] = await target.driver.claim({
      queues: [queue],
      workerId: 'cli-test',
      visibilityTimeoutMs: 600_000,
    });
    expect(held?.id).toBe(id);
    return id;
  }

  it('jobs delete removes a job and its steps by id; again it answers JOB_NOT_FOUND; a running job is refused naming jobs cancel', async () => {
    const dead = await deadJob(target.driver, { name: 'email.send', steps: ['render', 'send'] });
    const deleted = await run('jobs', 'delete', dead.id);
    expect(deleted).toMatchObject({
      code: 0,
      stdout: `deleted ${dead.id} (email.send): was dead\n`,
    });
    expect(await target.driver.get(dead.id)).toBeUndefined();
    expect(await target.driver.steps.list(dead.runId)).toEqual([]);

    const again = await run('jobs', 'delete', dead.id, '--json');
    expect(again.code).toBe(1);
    expect(errorDoc(again)).toMatchObject({ code: 'JOB_NOT_FOUND', meta: { jobId: dead.id } });

    const busy = await runningJob('report.build');
    const refused = await run('jobs', 'delete', busy);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^JOB_NOT_DELETABLE .+\nfix: .*berth jobs cancel <id>/);
    expect((await target.driver.get(busy))?.state).toBe('running');
  });

  it('jobs delete with several ids acts on each and reports per job, a refused one making the exit 1', async () => {
    const a = await deadJob(target.driver, { name: 'email.send' });
    const b = (await target.driver.enqueue({ name: 'sms.send', runAt: Date.now() + 3_600_000 })).id;
    const busy = await runningJob('report.build');
    const report = await run('jobs', 'delete', a.id, b, busy, '--json');
    expect(report.code).toBe(1);
    expect(JSON.parse(report.stdout)).toEqual({
      action: 'delete',
      selected: 3,
      done: 2,
      refused: 1,
      results: [
        { id: a.id, name: 'email.send', ok: true, state: 'dead' },
        { id: b, name: 'sms.send', ok: true, state: 'delayed' },
        {
          id: busy,
          name: '-',
          ok: false,
          error: expect.objectContaining({
            code: 'JOB_NOT_DELETABLE',
            meta: { jobId: busy, state: 'running' },
          }),
        },
      ],
    });
    expect(await target.driver.get(a.id)).toBeUndefined();
    expect(await target.driver.get(b)).toBeUndefined();
  });

  it('jobs delete by filter is refused without --yes and no terminal, and with --yes deletes what it selects', async () => {
    const a = await deadJob(target.driver, { name: 'email.send' });
    const b = await deadJob(target.driver, { name: 'email.send' });
    const other = await deadJob(target.driver, { name: 'sms.send' });

    const refused = await run('jobs', 'delete', '--state', 'dead', '--name', 'email.send');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('CONFIRMATION_REQUIRED');
    expect(refused.stderr).toMatch(/^fix: add --yes .*berth jobs delete --state dead .*--yes$/m);
    for (const job of [a, b, other]) expect((await target.driver.get(job.id))?.state).toBe('dead');

    const bulk = await run('jobs', 'delete', '--state', 'dead', '--name', 'email.send', '--yes');
    expect(bulk.code).toBe(0);
    expect(bulk.stdout).toMatch(new RegExp(`^${a.id} +email\\.send +deleted \\(was dead\\)$`, 'm'));
    expect(bulk.stdout).toMatch(/^deleted 2 of 2$/m);
    expect(await target.driver.get(a.id)).toBeUndefined();
    expect(await target.driver.get(b.id)).toBeUndefined();
    expect((await target.driver.get(other.id))?.state).toBe('dead');
  });

  it("jobs delete --tenant sees only that tenant's jobs: another tenant's id is JOB_NOT_FOUND, a filter selects only its own", async () => {
    const acme = await target.driver.enqueue({ name: 'email.send', tenantId: 'acme' });
    const globex = await target.driver.enqueue({ name: 'email.send', tenantId: 'globex' });

    const foreign = await run('jobs', 'delete', acme.id, '--tenant', 'globex', '--json');
    expect(foreign.code).toBe(1);
    expect(errorDoc(foreign)).toMatchObject({ code: 'JOB_NOT_FOUND' });
    expect((await target.driver.get(acme.id))?.state).toBe('ready');

    const own = await berthJson<{ done: number }>([
      'jobs',
      'delete',
      '--state',
      'ready',
      '--tenant',
      'acme',
      '--yes',
      '--json',
      ...target.flags,
    ]);
    expect([own.code, own.doc.done]).toEqual([0, 1]);
    expect(await target.driver.get(acme.id)).toBeUndefined();
    const kept: JobRecord | undefined = await target.driver.get(globex.id);
    expect(kept?.tenantId).toBe('globex');
  });
}

import type { Driver, LifecycleEvent } from '@berth/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { berth, berthJson, errorDoc } from './support/berth.js';
import { type Running, start } from './support/serve.js';
import { redisTarget, type Target } from './support/targets.js';

interface Page {
  readonly events: LifecycleEvent[];
  readonly next?: string;
  readonly caughtUp: boolean;
}

const WORKER = 'cli-lifecycle';

/** Enqueues one job and claims it: one `active` event. Answers what acks it (a `completed`). */
async function activeJob(
  driver: Driver,
  job: { name: string; queue: string; tenantId?: string },
): Promise<{ id: string; complete: () => Promise<void> }> {
  const { id } = await driver.enqueue(job);
  const [claimed] = await driver.claim({
    queues: [job.queue],
    workerId: WORKER,
    visibilityTimeoutMs: 60_000,
  });
  if (claimed?.id !== id) throw new Error(`did not claim ${id}`);
  return {
    id,
    complete: async () => {
      await driver.ack({ jobId: id, workerId: WORKER, claim: claimed.claim });
    },
  };
}

const summary = (events: readonly LifecycleEvent[]) =>
  events.map((event) => `${event.type} ${event.jobId} ${event.attempt}`);

describe('berth lifecycle (Redis)', () => {
  let target: Target;
  const running: Running[] = [];
  beforeEach(async () => {
    target = await redisTarget();
  });
  afterEach(async () => {
    for (const served of running.splice(0)) await served.stop('SIGKILL');
    await target.dispose();
  });
  const json = (...args: string[]) => berthJson<Page>(['lifecycle', ...args, ...target.flags]);
  const run = (...args: string[]) => berth(['lifecycle', ...args, ...target.flags]);

  it('a page lists the events oldest first, narrowed by --queue, --name and --job', async () => {
    const report = await activeJob(target.driver, { name: 'report.build', queue: 'reports' });
    const email = await activeJob(target.driver, { name: 'email.send', queue: 'mail' });
    await report.complete();

    expect(summary((await json()).doc.events)).toEqual([
      `active ${report.id} 1`,
      `active ${email.id} 1`,
      `completed ${report.id} 1`,
    ]);
    expect(summary((await json('--queue', 'reports')).doc.events)).toEqual([
      `active ${report.id} 1`,
      `completed ${report.id} 1`,
    ]);
    expect(summary((await json('--name', 'email.send')).doc.events)).toEqual([
      `active ${email.id} 1`,
    ]);
    expect(summary((await json('--job', report.id, '--queue', 'mail')).doc.events)).toEqual([]);

    const table = await run('--job', report.id);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^POSITION +AT +TYPE +JOB ID +NAME +QUEUE +ATTEMPT$/m);
    expect(table.stdout).toMatch(
      new RegExp(`^\\S+ +.+ ago +active +${report.id} +report\\.build +reports +1$`, 'm'),
    );
    expect(table.stdout).toMatch(new RegExp(`^\\S+ +.+ ago +completed +${report.id} `, 'm'));
    expect(table.stdout).not.toContain(email.id);
    expect(table.stdout).not.toContain('more:');
  });

  it('a page that stops short prints the --from to read on, and --from reads on from there', async () => {
    const first = await activeJob(target.driver, { name: 'report.build', queue: 'reports' });
    const second = await activeJob(target.driver, { name: 'report.build', queue: 'reports' });
    await first.complete();

    const page = await json('--limit', '2');
    expect(summary(page.doc.events)).toEqual([`active ${first.id} 1`, `active ${second.id} 1`]);
    expect(page.doc.caughtUp).toBe(false);
    expect(page.doc.next).toBe(page.doc.events[1]?.position);

    const text = await run('--limit', '2');
    const hint = /^more: add --from (\S+)$/m.exec(text.stdout);
    expect(hint?.[1]).toBe(page.doc.next);

    const rest = await json('--from', hint?.[1] ?? '');
    expect(summary(rest.doc.events)).toEqual([`completed ${first.id} 1`]);
    expect(rest.doc.caughtUp).toBe(true);
    const restText = await run('--from', hint?.[1] ?? '');
    expect(restText.stdout).toMatch(new RegExp(`completed +${first.id} `));
    expect(restText.stdout).not.toContain('more:');

    // From the end: nothing has happened since.
    expect((await json('--from', 'end')).doc).toMatchObject({ events: [], caughtUp: true });
    expect((await run('--from', 'end')).stdout).toBe('no lifecycle events match\n');
  });

  it("--tenant reads only that tenant's jobs' events", async () => {
    const acme = await activeJob(target.driver, {
      name: 'report.build',
      queue: 'q',
      tenantId: 'acme',
    });
    const globex = await activeJob(target.driver, {
      name: 'report.build',
      queue: 'q',
      tenantId: 'globex',
    });
    await acme.complete();
    await globex.complete();

    const page = await json('--tenant', 'acme');
    expect(summary(page.doc.events)).toEqual([`active ${acme.id} 1`, `completed ${acme.id} 1`]);
    expect(page.doc.events.map((event) => event.tenantId)).toEqual(['acme', 'acme']);
  });

  it('a position the store never made is JOB_PAGE_INVALID naming --from (exit 1), with and without --follow; a bad --job id is JOB_INVALID naming --job', async () => {
    await activeJob(target.driver, { name: 'report.build', queue: 'reports' });
    for (const extra of [[], ['--follow']]) {
      const refused = await run('--from', 'not-a-position', ...extra, '--json');
      expect(refused.code, extra.join(' ')).toBe(1);
      expect(refused.stdout).toBe('');
      const error = errorDoc(refused);
      expect(error.code).toBe('JOB_PAGE_INVALID');
      expect(error.fix).toContain('--from start');
    }
    const job = await run('--job', 'not-a-job-id', '--json');
    expect(job.code).toBe(1);
    expect(errorDoc(job)).toMatchObject({ code: 'JOB_INVALID', meta: { field: 'jobId' } });
    expect(errorDoc(job).fix).toContain('correct --job');
    const text = await run('--from', 'not-a-position');
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/^JOB_PAGE_INVALID /m);
    expect(text.stderr).toMatch(/^fix: pass --from start/m);
  });

  it('a --limit outside 1..200, or --limit with --follow, is a usage error (exit 2) naming the flag', async () => {
    for (const args of [
      ['--limit', '201'],
      ['--limit', '0'],
      ['--limit', '5', '--follow'],
    ]) {
      const ran = await run(...args);
      expect(ran.code, args.join(' ')).toBe(2);
      expect(ran.stderr, args.join(' ')).toContain('--limit');
    }
    const interval = await run('--follow', '--interval', '5ms');
    expect(interval.code).toBe(2);
    expect(interval.stderr).toContain('--interval');
  });

  it('--follow prints each event from the end on as it happens, then exits 0 on SIGINT', async () => {
    const before = await activeJob(target.driver, { name: 'report.build', queue: 'reports' });
    const follow = start([
      'lifecycle',
      '--follow',
      '--queue',
      'reports',
      '--interval',
      '20ms',
      ...target.flags,
    ]);
    running.push(follow);
    // The note is written once the end is taken: what happens after it is printed.
    await follow.waitFor(/^following lifecycle events after \S+; Ctrl-C stops$/m, 'stderr');

    const job = await activeJob(target.driver, { name: 'report.build', queue: 'reports' });
    await follow.waitFor(new RegExp(`active +${job.id} +report\\.build +reports +attempt 1$`, 'm'));
    await job.complete();
    await follow.waitFor(new RegExp(`completed +${job.id} `, 'm'));

    expect(await follow.stop('SIGINT')).toBe(0);
    const lines = follow.output().stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\S+ {2}\d{4}-\d\d-\d\dT\S+Z {2}active {4}/);
    expect(follow.output().stdout).not.toContain(before.id);
  });

  it('--follow --json prints JSON Lines after a --from position, then exits 0 on SIGTERM', async () => {
    const job = await activeJob(target.driver, { name: 'report.build', queue: 'reports' });
    const from = await target.driver.lifecycle.end();
    const follow = start([
      'lifecycle',
      '--follow',
      '--json',
      '--from',
      from ?? '',
      '--job',
      job.id,
      '--interval',
      '20ms',
      ...target.flags,
    ]);
    running.push(follow);
    await job.complete();
    await follow.waitFor(/"type":"completed"/);

    expect(await follow.stop('SIGTERM')).toBe(0);
    const { stdout, stderr } = follow.output();
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LifecycleEvent);
    expect(summary(events)).toEqual([`completed ${job.id} 1`]);
    expect(events[0]).toMatchObject({ name: 'report.build', queue: 'reports' });
    expect(stderr).toBe('');
  });
});

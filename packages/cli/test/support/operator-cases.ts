import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type {
  AttemptHistory,
  EnqueueResult,
  EventRecord,
  JobRecord,
  ListPage,
  QueueStats,
  StepRecord,
} from '@berth/core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BIN, berth, berthJson, cleanEnv, errorDoc } from './berth.js';
import { BOOM, completedJob, deadJob, type Target } from './targets.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const HOUR = 3_600_000;

/**
 * The operator's commands against one backend, each through the CLI's `run`. `open` gives a
 * fresh queue (own schema or prefix) per case; the case's driver sets up state and checks it.
 */
export function operatorCases(open: () => Promise<Target>): void {
  let target: Target;
  beforeEach(async () => {
    target = await open();
  });
  afterEach(async () => {
    await target.dispose();
  });
  const run = (...args: string[]) => berth([...args, ...target.flags]);
  const json = <T>(...args: string[]) => berthJson<T>([...args, ...target.flags]);

  it('enqueue queues the job with its options, --json answers { id, runId, deduped }, and a held key dedupes', async () => {
    const args = [
      'enqueue',
      'email.send',
      '{"to":"ada@example.com"}',
      '--queue',
      'mail',
      '--priority',
      '5',
      '--key',
      'welcome-ada',
      '--max-attempts',
      '2',
    ];
    const first = await json<EnqueueResult>(...args);
    expect(first.doc).toEqual({
      id: expect.stringMatching(UUID),
      runId: expect.stringMatching(UUID),
      deduped: false,
      queue: 'mail',
      maxAttempts: 2,
    });
    expect(await target.driver.get(first.doc.id)).toMatchObject({
      name: 'email.send',
      queue: 'mail',
      priority: 5,
      maxAttempts: 2,
      idempotencyKey: 'welcome-ada',
      payload: { to: 'ada@example.com' },
      state: 'ready',
    });
    expect((await json<EnqueueResult>(...args)).doc).toEqual({ ...first.doc, deduped: true });

    const before = Date.now();
    const delayed = await run('enqueue', 'report.build', '--delay', '1h');
    expect(delayed.code).toBe(0);
    const [, id] =
      /^enqueued report\.build (\S+) on queue default, max attempts 3\n$/.exec(delayed.stdout) ??
      [];
    const job = await target.driver.get(id ?? '');
    expect(job?.state).toBe('delayed');
    expect(job?.runAt).toBeGreaterThanOrEqual(before + HOUR);
    expect(job?.runAt).toBeLessThanOrEqual(Date.now() + HOUR);
  });

  it('jobs ls lists newest first by filter, pages with --after, walks every page with --all, and prints an aligned table', async () => {
    const ids: string[] = [];
    for (const name of ['a.job', 'b.job', 'a.job']) {
      ids.push((await target.driver.enqueue({ name, queue: 'ls' })).id);
    }
    const newestFirst = [...ids].reverse();
    const named = await json<ListPage>('jobs', 'ls', '--name', 'a.job');
    expect(named.doc.jobs.map((job) => job.id)).toEqual([ids[2], ids[0]]);

    const first = await json<ListPage>('jobs', 'ls', '--limit', '2');
    expect(first.doc.jobs.map((job) => job.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.doc.next).toEqual(expect.any(String));
    const second = await json<ListPage>(
      'jobs',
      'ls',
      '--limit',
      '2',
      '--after',
      first.doc.next ?? '',
    );
    expect(second.doc.jobs.map((job) => job.id)).toEqual(newestFirst.slice(2));
    expect(second.doc.next).toBeUndefined();
    const all = await json<ListPage>('jobs', 'ls', '--all', '--limit', '1', '--state', 'ready');
    expect(all.doc).toEqual({ jobs: expect.any(Array) });
    expect(all.doc.jobs.map((job) => job.id)).toEqual(newestFirst);

    const table = await run('jobs', 'ls', '--queue', 'ls');
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID {2,}NAME {2,}QUEUE {2,}STATE {2,}TRIES/);
    expect(lines.slice(1).map((line) => line.slice(0, 36))).toEqual(newestFirst);
    // Columns line up: every row has its state where the head has STATE.
    const stateAt = lines[0]?.indexOf('STATE') ?? -1;
    for (const line of lines.slice(1)) expect(line.slice(stateAt, stateAt + 5)).toBe('ready');
    expect(table.stdout).not.toContain('\u001b[');
  });

  it('jobs show prints the record, its attempt history, its steps in write order, and its last error with stack', async () => {
    const dead = await deadJob(target.driver, {
      name: 'email.send',
      steps: ['load-user', 'render', 'send'],
    });
    const shown = await run('jobs', 'show', dead.id);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^id +${dead.id}$`, 'm'));
    expect(shown.stdout).toMatch(/^state +dead$/m);
    expect(shown.stdout).toContain(`${BOOM.code}: ${BOOM.message}`);
    expect(shown.stdout).toContain('at send (mailer.ts:42:11)');
    const order = ['load-user', 'render', 'send'].map((step) =>
      shown.stdout.search(new RegExp(`^ *\\d+ +${step} `, 'm')),
    );
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(shown.stdout).toContain('attempts (1, oldest first)');
    expect(shown.stdout).toMatch(/^#\s+ATTEMPT\s+OUTCOME\s+WORKER\s+CLAIMED\s+TOOK\s+ERROR$/m);
    expect(shown.stdout).toMatch(
      new RegExp(`^ *1 +1 +failed +\\S+ .+${BOOM.code}: ${BOOM.message}`, 'm'),
    );

    const { doc } = await json<{ job: JobRecord; attempts: AttemptHistory; steps: StepRecord[] }>(
      'jobs',
      'show',
      dead.id,
    );
    expect(doc.job).toEqual(await target.driver.get(dead.id));
    expect(doc.attempts).toEqual(await target.driver.attempts.list(dead.id));
    expect(doc.attempts.records.map((record) => record.outcome)).toEqual(['failed']);
    expect(doc.steps.map((step) => step.name)).toEqual(['load-user', 'render', 'send']);

    const missing = await run('jobs', 'show', '0b9a4c3e-8d7f-4f5e-9a51-2f1c6c0d7e11');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('JOB_NOT_FOUND');
    expect(missing.stderr).toMatch(/^fix: .+/m);
  });

  it('jobs retry requeues a dead job, --from-step drops that step and every later one, and a second retry is refused', async () => {
    const dead = await deadJob(target.driver, {
      name: 'email.send',
      steps: ['load-user', 'render', 'send'],
    });
    const { doc } = await json<{ job: JobRecord }>(
      'jobs',
      'retry',
      dead.id,
      '--from-step',
      'render',
    );
    expect(doc.job).toMatchObject({ id: dead.id, state: 'ready', attempts: 0 });
    const steps = await target.driver.steps.list(dead.runId);
    expect(steps.map((step) => step.name)).toEqual(['load-user']);

    const again = await run('jobs', 'retry', dead.id, '--json');
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(errorDoc(again)).toMatchObject({
      name: 'BerthError',
      code: 'JOB_NOT_REQUEUEABLE',
      meta: { state: 'ready' },
    });
  });

  it('a bulk retry without --yes and no terminal is refused (exit 2) and changes nothing; with --yes it reports per job', async () => {
    const a = await deadJob(target.driver, { name: 'email.send' });
    const b = await deadJob(target.driver, { name: 'email.send', idempotencyKey: 'k-held' });
    const other = await deadJob(target.driver, { name: 'sms.send' });
    // A live job holds b's key, so b's requeue is refused JOB_DUPLICATE.
    const holder = await target.driver.enqueue({ name: 'email.send', idempotencyKey: 'k-held' });

    const refused = await run('jobs', 'retry', '--state', 'dead', '--name', 'email.send');
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('CONFIRMATION_REQUIRED');
    expect(refused.stderr).toMatch(
      /^fix: add --yes .*berth jobs retry --state dead --name email\.send .*--yes$/m,
    );
    for (const job of [a, b, other]) expect((await target.driver.get(job.id))?.state).toBe('dead');

    const report = await run(
      'jobs',
      'retry',
      '--state',
      'dead',
      '--name',
      'email.send',
      '--yes',
      '--json',
    );
    expect(report.code).toBe(1);
    expect(JSON.parse(report.stdout)).toEqual({
      action: 'retry',
      selected: 2,
      done: 1,
      refused: 1,
      results: [
        expect.objectContaining({
          id: b.id,
          ok: false,
          error: expect.objectContaining({
            code: 'JOB_DUPLICATE',
            meta: expect.objectContaining({ existingId: holder.id }),
          }),
        }),
        { id: a.id, name: 'email.send', ok: true, state: 'ready' },
      ],
    });
    expect((await target.driver.get(other.id))?.state).toBe('dead');
  });

  it('jobs promote and cancel act by id and in bulk, and refuse a job in the wrong state', async () => {
    const runAt = Date.now() + HOUR;
    const d1 = await target.driver.enqueue({ name: 'digest.send', queue: 'later', runAt });
    const d2 = await target.driver.enqueue({ name: 'digest.send', queue: 'later', runAt });
    const ready = await target.driver.enqueue({ name: 'email.send', queue: 'now' });

    const promoted = await run('jobs', 'promote', d1.id);
    expect(promoted).toMatchObject({
      code: 0,
      stdout: `promoted ${d1.id} (digest.send): now ready\n`,
    });
    const again = await run('jobs', 'promote', d1.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^JOB_NOT_PROMOTABLE .+\nfix: .+/);

    expect((await json<{ job: JobRecord }>('jobs', 'cancel', ready.id)).doc.job.state).toBe(
      'cancelled',
    );

    const bulk = await run('jobs', 'cancel', '--state', 'delayed', '--queue', 'later', '--yes');
    expect(bulk.code).toBe(0);
    expect(bulk.stdout).toMatch(
      new RegExp(`^${d2.id} +digest\\.send +cancelled → cancelled$`, 'm'),
    );
    expect(bulk.stdout).toMatch(/^cancelled 1 of 1$/m);
    expect((await target.driver.get(d1.id))?.state).toBe('ready');
  });

  it('purge removes settled jobs that finished longer ago than --older-than, and asks first', async () => {
    const completed = await completedJob(target.driver, 'email.send');
    const cancelled = (await target.driver.enqueue({ name: 'email.send' })).id;
    await target.driver.cancel(cancelled);

    expect(
      (await json('purge', '--states', 'completed,cancelled', '--older-than', '1h', '--yes')).doc,
    ).toMatchObject({ purged: 0 });
    const unconfirmed = await run('purge', '--states', 'completed,cancelled', '--older-than', '0s');
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('CONFIRMATION_REQUIRED');
    expect(await target.driver.get(completed)).toBeDefined();

    const purged = await json<{ purged: number; states: string[] }>(
      'purge',
      '--states',
      'completed,cancelled',
      '--older-than',
      '0s',
      '--yes',
    );
    expect(purged.doc).toMatchObject({ purged: 2, states: ['completed', 'cancelled'] });
    expect(await target.driver.get(completed)).toBeUndefined();
    expect(await target.driver.get(cancelled)).toBeUndefined();
  });

  it('purge repeats bounded calls of --batch-size until every matching job is gone', async () => {
    for (let made = 0; made < 5; made += 1) await completedJob(target.driver, 'email.send');
    const purged = await json<{ purged: number }>(
      'purge',
      '--states',
      'completed',
      '--older-than',
      '0s',
      '--batch-size',
      '2',
      '--yes',
    );
    expect(purged.doc).toMatchObject({ purged: 5 });
    expect((await target.driver.list()).jobs).toEqual([]);
    const bad = await run(
      'purge',
      '--states',
      'completed',
      '--older-than',
      '0s',
      '--batch-size',
      '0',
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--batch-size');
  });

  it('events publish stores an event with its ttl, and events ls lists the live ones', async () => {
    const published = await json<{ event: EventRecord }>(
      'events',
      'publish',
      'order.paid',
      '{"orderId":"o_1"}',
      '--ttl',
      '1h',
    );
    const { event } = published.doc;
    expect(event).toMatchObject({ name: 'order.paid', payload: { orderId: 'o_1' } });
    expect(event.expiresAt - event.publishedAt).toBe(HOUR);
    await target.driver.events.publish('other.event', null);

    expect((await json<{ events: EventRecord[] }>('events', 'ls', 'order.paid')).doc).toEqual({
      events: [event],
    });
    const table = await run('events', 'ls');
    expect(table.stdout).toMatch(
      new RegExp(`^${event.id} +order\\.paid .+\\{"orderId":"o_1"\\}$`, 'm'),
    );
    expect(table.stdout).toMatch(/^\S+ +other\.event +/m);
  });

  it('stats counts jobs per queue and state; --watch prints again until interrupted, then exits 0', async () => {
    await target.driver.enqueue({ name: 'a', queue: 'q1' });
    await target.driver.enqueue({ name: 'a', queue: 'q1' });
    await target.driver.enqueue({ name: 'b', queue: 'q2', runAt: Date.now() + HOUR });
    const { doc } = await json<{ at: number; queues: QueueStats[] }>('stats');
    expect(
      doc.queues.map((queue) => [queue.queue, queue.counts.ready, queue.counts.delayed]),
    ).toEqual([
      ['q1', 2, 0],
      ['q2', 0, 1],
    ]);
    expect(doc.queues[0]?.oldestReadyAgeMs).toEqual(expect.any(Number));

    // Two snapshots seen, then Ctrl-C: the watch closes its driver and exits 0.
    const child = spawn(
      process.execPath,
      [BIN, 'stats', '--watch', '--interval', '100ms', '--json', ...target.flags],
      {
        env: cleanEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    const lines = createInterface({ input: child.stdout });
    const seen: { queues: QueueStats[] }[] = [];
    for await (const line of lines) {
      seen.push(JSON.parse(line));
      if (seen.length === 2) child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen[1]?.queues.map((queue) => queue.queue)).toEqual(['q1', 'q2']);
  });
}

import { randomUUID } from 'node:crypto';
import { type BackfillRun, backfillJobName } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { berth, berthJson, errorDoc } from './support/berth.js';
import { natsTarget, pgTarget, redisTarget, type Target } from './support/targets.js';

type One = { run: BackfillRun };
type Many = { runs: BackfillRun[] };

/** Commits one pass of `rows` rows to `next` as the run's runner would. */
async function commitPass(target: Target, run: BackfillRun, rows: number, next: unknown) {
  const change = await target.driver.backfills.commit(run.runId, {
    jobId: run.jobId,
    passes: run.passes,
    next: next as BackfillRun['cursor'],
    rows,
  });
  if (change?.changed !== true) throw new Error(`the pass of ${run.runId} did not commit`);
  return change.run;
}

describe('berth backfills', () => {
  for (const [kind, open] of [
    ['PostgreSQL', () => pgTarget()],
    ['Redis', () => redisTarget()],
    ['NATS', () => natsTarget()],
  ] as const) {
    it(`start enqueues the runner job with its queue and attempts; pause, resume and cancel move the run, and ls and show answer what the ledger holds (${kind})`, async () => {
      const target: Target = await open();
      const json = <T>(...args: string[]) => berthJson<T>([...args, ...target.flags]);
      try {
        const runId = randomUUID();
        const started = await json<One>(
          'backfills',
          'start',
          'reindex-users',
          '--cursor',
          '{"id":1200}',
          '--queue',
          'maintenance',
          '--max-attempts',
          '20',
          '--run-id',
          runId,
        );
        expect(started.doc.run).toMatchObject({
          runId,
          name: 'reindex-users',
          status: 'running',
          cursor: { id: 1200 },
          passes: 0,
          rowsDone: 0,
        });
        expect(await target.driver.get(started.doc.run.jobId)).toMatchObject({
          name: backfillJobName('reindex-users'),
          queue: 'maintenance',
          maxAttempts: 20,
          payload: { runId },
        });

        const paused = await json<One>('backfills', 'pause', runId);
        expect(paused.doc.run.status).toBe('paused');
        const resumed = await json<One>('backfills', 'resume', runId);
        expect(resumed.doc.run.status).toBe('running');
        // A resume hands the run to a new runner job, on the queue the first one was in and
        // allowed as many attempts.
        expect(resumed.doc.run.jobId).not.toBe(started.doc.run.jobId);
        expect(await target.driver.get(resumed.doc.run.jobId)).toMatchObject({
          queue: 'maintenance',
          maxAttempts: 20,
        });

        const shown = await json<One>('backfills', 'show', runId);
        expect(shown.doc.run).toEqual(await target.driver.backfills.get(runId));
        const cancelled = await json<One>('backfills', 'cancel', runId);
        expect(cancelled.doc.run).toMatchObject({ status: 'cancelled', cursor: { id: 1200 } });
        expect(cancelled.doc.run.finishedAt).toBeTypeOf('number');

        const listed = await json<Many>('backfills', 'ls');
        expect(listed.doc.runs).toEqual([cancelled.doc.run]);
      } finally {
        await target.dispose();
      }
    });
  }

  it('ls shows each run as a row: rows done, passes, the cursor and the last error; filters by name and status, newest first', async () => {
    const target = await pgTarget();
    try {
      const older = await printedRun(target, 'backfills', 'start', 'reindex-users');
      const newer = await printedRun(
        target,
        'backfills',
        'start',
        'recount-orders',
        '--cursor',
        '0',
      );
      const moved = await commitPass(target, newer, 500, { id: 500 });
      await target.driver.backfills.transition(moved.runId, {
        from: ['running'],
        to: 'failed',
        error: 'Error: column "email" does not exist',
      });

      const text = await berth(['backfills', 'ls', ...target.flags]);
      expect(text.code).toBe(0);
      const lines = text.stdout.trim().split('\n');
      expect(lines[0]).toMatch(
        /^RUN ID +NAME +STATUS +ROWS +PASSES +CURSOR +STARTED +UPDATED +LAST ERROR$/,
      );
      expect(lines[1]).toMatch(
        new RegExp(
          `^${newer.runId} +recount-orders +failed +500 +1 +\\{"id":500\\} +.+ago +Error: column "email" does not exist$`,
        ),
      );
      expect(lines[2]).toMatch(new RegExp(`^${older.runId} +reindex-users +running +0 +0 +null `));

      const failed = await berthJson<Many>([
        'backfills',
        'ls',
        '--status',
        'failed',
        ...target.flags,
      ]);
      expect(failed.doc.runs.map((run) => run.runId)).toEqual([newer.runId]);
      const byName = await berthJson<Many>([
        'backfills',
        'ls',
        '--name',
        'reindex-users',
        '--limit',
        '1',
        ...target.flags,
      ]);
      expect(byName.doc.runs.map((run) => run.runId)).toEqual([older.runId]);

      const shown = await berth(['backfills', 'show', newer.runId, ...target.flags]);
      expect(shown.stdout).toMatch(/^rows done +500$/m);
      expect(shown.stdout).toMatch(/^last error +Error: column "email" does not exist$/m);
      expect(shown.stdout).toMatch(/^finished +\d{4}-/m);
      expect((await berth(['backfills', 'ls', '--status', 'paused', ...target.flags])).stdout).toBe(
        'no backfill runs match\n',
      );
    } finally {
      await target.dispose();
    }
  });

  it('a second start while the run holds its place exits 1 with BACKFILL_RUNNING, its fix naming the run to cancel; pause of an ended run is BACKFILL_NOT_ACTIVE', async () => {
    const target = await pgTarget();
    try {
      const first = await printedRun(target, 'backfills', 'start', 'reindex-users');
      const again = await berth(['backfills', 'start', 'reindex-users', ...target.flags]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(
        'BACKFILL_RUNNING backfill reindex-users already has 1 run(s)',
      );
      expect(again.stderr).toContain(`fix: wait for ${first.runId} to end`);
      expect(again.stderr).toContain(`berth backfills cancel ${first.runId}`);
      const two = await printedRun(
        target,
        'backfills',
        'start',
        'reindex-users',
        '--concurrency',
        '2',
      );
      expect(two.status).toBe('running');

      await printedRun(target, 'backfills', 'cancel', first.runId);
      const ended = await berth(['backfills', 'pause', first.runId, '--json', ...target.flags]);
      expect(ended.code).toBe(1);
      expect(errorDoc(ended)).toMatchObject({
        code: 'BACKFILL_NOT_ACTIVE',
        meta: { runId: first.runId, status: 'cancelled' },
      });
      expect(errorDoc(ended).fix).toContain(`berth backfills show ${first.runId}`);
      // Cancel is idempotent: the run answers as it stands.
      expect((await printedRun(target, 'backfills', 'cancel', first.runId)).status).toBe(
        'cancelled',
      );
    } finally {
      await target.dispose();
    }
  });

  it('--tenant starts, lists and finds only that tenant’s runs; another tenant’s run is BACKFILL_NOT_FOUND, as an unknown id', async () => {
    const target = await pgTarget();
    try {
      const acme = await printedRun(
        target,
        'backfills',
        'start',
        'reindex-users',
        '--tenant',
        'acme',
      );
      expect(acme.tenantId).toBe('acme');
      const globex = await printedRun(
        target,
        'backfills',
        'start',
        'reindex-users',
        '--tenant',
        'globex',
      );
      const listed = await berthJson<Many>([
        'backfills',
        'ls',
        '--tenant',
        'acme',
        ...target.flags,
      ]);
      expect(listed.doc.runs.map((run) => run.runId)).toEqual([acme.runId]);

      for (const args of [
        ['pause', globex.runId, '--tenant', 'acme'],
        ['show', globex.runId, '--tenant', 'acme'],
        ['cancel', randomUUID()],
      ]) {
        const missing = await berth(['backfills', ...args, '--json', ...target.flags]);
        expect(missing.code, args.join(' ')).toBe(1);
        expect(errorDoc(missing).code, args.join(' ')).toBe('BACKFILL_NOT_FOUND');
      }
      expect((await target.driver.backfills.get(globex.runId))?.status).toBe('running');
    } finally {
      await target.dispose();
    }
  });

  it('an unknown status, a cursor that is not JSON and a bad limit exit 2 before any server is asked; a run id that is not a UUID is JOB_INVALID', async () => {
    // Nothing listens on port 1: a command that got as far as its driver would exit 1.
    const url = ['--url', 'redis://127.0.0.1:1'];
    const cases: [string[], RegExp][] = [
      [
        ['ls', '--status', 'stuck'],
        /--status <status>.*'stuck' is invalid\. not a backfill status/,
      ],
      [['start', 'reindex-users', '--cursor', '{id:1}'], /--cursor <json>.*not JSON/],
      [['ls', '--limit', '101'], /--limit <n>.*not an integer from 1 to 100/],
      [['start', 'reindex-users', '--concurrency', '0'], /--concurrency <n>.*not an integer/],
    ];
    for (const [args, message] of cases) {
      const ran = await berth(['backfills', ...args, ...url]);
      expect(ran.code, args.join(' ')).toBe(2);
      expect(ran.stderr, args.join(' ')).toMatch(message);
    }
    const target = await redisTarget();
    try {
      const bad = await berth(['backfills', 'resume', 'not-a-run', '--json', ...target.flags]);
      expect(bad.code).toBe(1);
      expect(errorDoc(bad)).toMatchObject({ code: 'JOB_INVALID', meta: { field: 'runId' } });
    } finally {
      await target.dispose();
    }
  });
});

/** Runs `berth ...args --json` on the target and answers the run it printed. */
async function printedRun(target: Target, ...args: string[]): Promise<BackfillRun> {
  return (await berthJson<One>([...args, ...target.flags])).doc.run;
}

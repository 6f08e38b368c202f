import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Driver } from '@berth/core';
import { afterAll, describe, expect, it } from 'vitest';
import { berthOnPath, runBlock, shBlocks } from './support/blocks.js';
import { commandsIn, leafPaths, realProgram, resolveCommand } from './support/commands.js';
import { deadOutboxRows, dropDeadOutbox } from './support/outbox.js';
import { start } from './support/serve.js';
import { deadJob, pgTarget, type Target } from './support/targets.js';

const HOUR = 3_600_000;
const blocks = shBlocks(new URL('../README.md', import.meta.url));
/** Files a block reads (removed after the suite). */
const scratch = mkdtempSync(join(tmpdir(), 'berth-readme-'));

interface Case {
  /**
   * State the block acts on; answers `$JOB_ID` when the block names one, or the variables it
   * names (`$CURSOR`).
   */
  readonly arrange?: (
    driver: Driver,
  ) => Promise<string | Readonly<Record<string, string>> | undefined>;
  /** What must hold once the block ran (it already exited 0). */
  readonly check: (driver: Driver, stdout: string, jobId: string | undefined) => Promise<void>;
  readonly migrated?: false;
  /**
   * The block serves until interrupted: it runs on port 0 (tests must not collide over the
   * default port), this checks it at the address it printed, then SIGINT must end it with 0.
   */
  readonly serves?: (url: string) => Promise<void>;
}

const later = () => Date.now() + HOUR;

const CASES: Readonly<Record<string, Case>> = {
  migrate: {
    migrated: false,
    check: async (_driver, stdout) => {
      expect(stdout).toMatch(/pending[\s\S]*applied/);
    },
  },
  enqueue: {
    check: async (driver) => {
      const [job] = (await driver.list({ name: 'email.send' })).jobs;
      expect(job).toMatchObject({
        state: 'delayed',
        idempotencyKey: 'welcome-ada',
        payload: { to: 'ada@example.com' },
      });
    },
  },
  'enqueue-ndjson': {
    arrange: async () => {
      const file = join(scratch, 'jobs.ndjson');
      writeFileSync(
        file,
        [
          '{"name":"email.send","payload":{"to":"ada@example.com"},"queue":"mail","idempotencyKey":"welcome-ada"}',
          '{"name":"email.send","queue":"mail","idempotencyKey":"welcome-ada"}',
          '{"name":"report.build","delay":"10s"}',
        ].join('\n'),
      );
      return { JOBS_FILE: file };
    },
    check: async (driver, stdout) => {
      const [text, json] = stdout.split(/\n(?=\{)/);
      expect(text).toMatch(
        /^enqueued 3 jobs from \S+jobs\.ndjson in 1 batches: 2 new, 1 deduped; queues mail 2, default 1$/,
      );
      // The second run finds every key held and the report enqueued again.
      expect(JSON.parse(json ?? '')).toMatchObject({ jobs: 3, enqueued: 1, deduped: 2 });
      expect((await driver.list({ name: 'report.build' })).jobs).toHaveLength(2);
    },
  },
  'jobs-ls': {
    arrange: async (driver) => (await deadJob(driver, { name: 'email.send' })).id,
    check: async (_driver, stdout, id) => {
      const [table, json] = stdout.split(/\n(?=\{)/);
      expect(table).toContain(`${id}  email.send`);
      expect(JSON.parse(json ?? '').jobs).toHaveLength(1);
    },
  },
  'jobs-ls-pages': {
    arrange: async (driver) => {
      for (const name of ['a.job', 'b.job', 'c.job']) await driver.enqueue({ name });
      const first = await driver.list({ limit: 1 });
      const second = await driver.list({ limit: 1, after: first.next ?? '' });
      return { CURSOR: first.next ?? '', PREV: second.prev ?? '' };
    },
    check: async (_driver, stdout) => {
      const names = [...stdout.matchAll(/^\S+ +([abc]\.job) /gm)].map((match) => match[1]);
      expect(names).toEqual(['b.job', 'c.job']);
      expect(stdout).toContain('newer: add --before ');
    },
  },
  'jobs-show': {
    arrange: async (driver) =>
      (
        await deadJob(driver, {
          name: 'email.send',
          steps: ['load-user', 'send'],
          logs: ['connecting to smtp', 'sent \u001b[31mred'],
        })
      ).id,
    check: async (_driver, stdout, id) => {
      expect(stdout).toContain(id);
      expect(stdout).toContain('steps (2, in write order)');
      expect(stdout).toContain('attempts (1, oldest first)');
      expect(stdout).toContain('logs (2)');
      expect(stdout).toMatch(/#1 {2}attempt 1 {2}\S+ {2}info {3}connecting to smtp/);
      // A control character from the queue is shown escaped, never sent to the terminal.
      expect(stdout).toContain('sent \\x1b[31mred');
      expect(stdout).not.toContain('\u001b[31mred');
    },
  },
  'jobs-logs': {
    arrange: async (driver) =>
      (await deadJob(driver, { name: 'email.send', logs: ['one', 'two'] })).id,
    check: async (_driver, stdout) => {
      const printed = stdout.trim().split('\n');
      const text = printed.filter((line) => !line.startsWith('{'));
      const json = printed.filter((line) => line.startsWith('{'));
      expect(text.map((line) => line.split(' ').at(-1))).toEqual(['one', 'two']);
      expect(json.map((line) => JSON.parse(line).message)).toEqual(['one', 'two']);
    },
  },
  lifecycle: {
    arrange: async (driver) => {
      const { id } = await driver.enqueue({ name: 'report.build', queue: 'reports' });
      const [job] = await driver.claim({
        queues: ['reports'],
        workerId: 'w',
        visibilityTimeoutMs: HOUR,
      });
      await driver.ack({ jobId: id, workerId: 'w', claim: job?.claim ?? 0 });
      const [active] = (await driver.lifecycle.read({ limit: 1 })).events;
      return { FROM: active?.position ?? '' };
    },
    check: async (_driver, stdout) => {
      const [table, json] = stdout.split(/\n(?=\{)/);
      expect(table).toMatch(/^\S+ +.+ ago +active +\S+ +report\.build +reports +1$/m);
      expect(table).toMatch(/^more: add --from \S+$/m);
      const page = JSON.parse(json ?? '');
      expect(page.events.map((event: { type: string }) => event.type)).toEqual(['completed']);
      expect(page.caughtUp).toBe(true);
    },
  },
  'jobs-retry': {
    arrange: async (driver) => {
      await deadJob(driver, { name: 'email.send' });
      return (await deadJob(driver, { name: 'email.send' })).id;
    },
    check: async (driver) => {
      expect((await driver.list({ state: 'dead' })).jobs).toEqual([]);
      expect((await driver.list({ state: 'ready' })).jobs).toHaveLength(2);
    },
  },
  'jobs-cancel': {
    arrange: async (driver) => {
      await driver.enqueue({ name: 'report.build', queue: 'reports', runAt: later() });
      return (await driver.enqueue({ name: 'email.send' })).id;
    },
    check: async (driver) => {
      expect((await driver.list({ state: 'cancelled' })).jobs).toHaveLength(2);
    },
  },
  'jobs-delete': {
    arrange: async (driver) => {
      await deadJob(driver, { name: 'email.send' });
      await driver.enqueue({ name: 'email.send', queue: 'mail' });
      await deadJob(driver, { name: 'sms.send' });
      return (await deadJob(driver, { name: 'report.build' })).id;
    },
    check: async (driver, stdout) => {
      expect(stdout).toMatch(/^deleted \S+ \(report\.build\): was dead$/m);
      expect(stdout.match(/^deleted 1 of 1$/gm)).toHaveLength(2);
      const left = (await driver.list()).jobs.map((job) => `${job.name} ${job.state}`);
      expect(left).toEqual(['sms.send dead']);
    },
  },
  'jobs-promote': {
    arrange: async (driver) => {
      await driver.enqueue({ name: 'digest.send', runAt: later() });
      return (await driver.enqueue({ name: 'report.build', runAt: later() })).id;
    },
    check: async (driver) => {
      expect((await driver.list({ state: 'ready' })).jobs).toHaveLength(2);
    },
  },
  stats: {
    arrange: async (driver) => {
      await driver.enqueue({ name: 'email.send' });
      await driver.enqueue({ name: 'report.build', queue: 'reports', runAt: Date.now() - HOUR });
      await driver.enqueue({ name: 'account.sync', queue: 'sync', concurrencyKey: 'acct-1' });
      await driver.claim({ queues: ['sync'], workerId: 'w', visibilityTimeoutMs: HOUR });
      return undefined;
    },
    check: async (_driver, stdout) => {
      expect(stdout).toMatch(/^default +1 +0 /m);
      expect(stdout.match(/^account\.sync +acct-1 +1$/gm)).toHaveLength(2);
      expect(stdout).toMatch(/COMPLETED\/MIN +FAILED\/MIN/);
      expect(stdout).toContain('per minute over the last 15 min');
      // The default 5m and the example's 1m both flag the job waiting for an hour, only it.
      expect(stdout.match(/^reports +report\.build +1h/gm)).toHaveLength(2);
      expect(stdout).toContain('ready jobs no worker ran for over 1m');
      expect(stdout).not.toMatch(/^default +email\.send/m);
    },
  },
  queues: {
    arrange: async (driver) => {
      await driver.enqueue({ name: 'email.send', queue: 'emails' });
      return undefined;
    },
    check: async (driver, stdout) => {
      expect(stdout).toMatch(/^paused emails since \S+/m);
      expect(stdout).toMatch(/^emails +paused +1 +0 +0 /m);
      expect(stdout).toMatch(/^resumed emails: workers claim from it again$/m);
      expect(await driver.pauses.list()).toEqual([]);
      expect((await driver.list({ queue: 'emails' })).jobs).toHaveLength(1);
    },
  },
  backfills: {
    arrange: async () => ({ RUN_ID: randomUUID() }),
    check: async (driver, stdout) => {
      const [run] = await driver.backfills.list();
      expect(run).toMatchObject({ name: 'reindex-users', status: 'cancelled', cursor: { id: 0 } });
      const id = run?.runId ?? '';
      expect(stdout).toMatch(
        new RegExp(
          `^started ${id} \\(reindex-users\\): runner job \\S+ on queue maintenance$`,
          'm',
        ),
      );
      expect(stdout).toMatch(
        new RegExp(`^${id} +reindex-users +running +0 +0 +\\{"id":0\\} `, 'm'),
      );
      expect(stdout).toMatch(new RegExp(`^paused ${id} \\(reindex-users\\)`, 'm'));
      expect(stdout).toMatch(
        new RegExp(
          `^resumed ${id} \\(reindex-users\\): runner job \\S+ goes on from cursor \\{"id":0\\}$`,
          'm',
        ),
      );
      expect(stdout).toMatch(
        new RegExp(`^cancelled ${id} \\(reindex-users\\) at cursor \\{"id":0\\}$`, 'm'),
      );
      expect((await driver.get(run?.jobId ?? ''))?.queue).toBe('maintenance');
    },
  },
  schedules: {
    check: async (driver, stdout) => {
      expect((await driver.schedules.list()).schedules).toEqual([]);
      expect(stdout).toMatch(
        /^created schedule nightly-report: running schedulers enqueue its slots from their next tick$/m,
      );
      expect(stdout).toMatch(
        /^nightly-report +0 3 \* \* \* \(Europe\/Berlin\) +report\.build +reports +active +\d{4}-\S+ \(in .+\) +1$/m,
      );
      expect(stdout).toMatch(/^paused nightly-report: /m);
      expect(stdout).toMatch(/^resumed nightly-report: next slot \d{4}-/m);
      expect(stdout).toMatch(/^payload +\{"format":"pdf"\}$/m);
      expect(stdout).toMatch(/^revision +3$/m);
      expect(stdout).toMatch(
        /^removed schedule nightly-report: running schedulers enqueue none of its slots/m,
      );
    },
  },
  outbox: {
    arrange: async (driver) => {
      const { outbox, url, ids, schema } = await deadOutboxRows(driver);
      await outbox.close();
      return {
        DATABASE_URL: url,
        BERTH_OUTBOX_SCHEMA: schema,
        ROW_ID: ids[0] ?? '',
        OTHER_ROW_ID: ids[1] ?? '',
      };
    },
    check: async (driver, stdout) => {
      expect(stdout).toMatch(/^0 waiting, 2 dead$/m);
      expect(stdout).toMatch(/ note\.send +JOB_INVALID: /);
      expect(stdout).toMatch(/^staged again: 1 row\(s\); a relay moves them next$/m);
      expect(stdout).toMatch(/^discarded: 1 row\(s\)$/m);
      await dropDeadOutbox(driver);
    },
  },
  purge: {
    arrange: async (driver) => {
      const { id } = await driver.enqueue({ name: 'email.send', queue: 'mail' });
      await driver.cancel(id);
      return id;
    },
    check: async (driver, stdout, id) => {
      expect(stdout).toMatch(/^purged 0 completed, cancelled jobs/);
      expect(stdout).toMatch(
        /^would purge 0 dead jobs on queue mail named email\.send that finished before /m,
      );
      expect(await driver.get(id ?? '')).toBeDefined();
      expect(stdout).toMatch(/^purged 0 dead jobs of tenant acme that finished/m);
    },
  },
  dashboard: {
    serves: async (url) => {
      expect(await (await fetch(url)).text()).toContain('"readOnly":true');
      expect((await fetch(`${url}api/jobs`)).status).toBe(200);
    },
    check: async (_driver, stdout) => {
      expect(stdout).toMatch(
        /^dashboard at http:\/\/127\.0\.0\.1:\d+\/\nstopped; the driver is closed\n$/,
      );
    },
  },
  events: {
    check: async (driver, stdout) => {
      const [event] = await driver.events.list('order.paid');
      expect(stdout).toContain(`published order.paid ${event?.id}`);
      expect(stdout).toMatch(new RegExp(`^${event?.id} +order\\.paid `, 'm'));
    },
  },
};

describe('the README documents every command with an example that runs', () => {
  const path = berthOnPath();
  afterAll(() => {
    path.remove();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('every command has a block, every block line is a berth command the parser accepts, and every block has a case', () => {
    const program = realProgram();
    const documented = new Set<string>();
    for (const [key, block] of blocks) {
      expect(CASES[key], key).toBeDefined();
      for (const line of block.trim().split('\n')) {
        expect(line, key).toMatch(/^berth /);
        const resolved = resolveCommand(program, commandsIn(line)[0] ?? []);
        expect(resolved.problems, line).toEqual([]);
        documented.add(resolved.path);
      }
    }
    expect([...documented].sort()).toEqual(leafPaths(program).sort());
    expect([...blocks.keys()].sort()).toEqual(Object.keys(CASES).sort());
  });

  for (const [key, block] of blocks) {
    it(`the ${key} example runs as written against PostgreSQL`, async () => {
      const scenario = CASES[key];
      if (scenario === undefined) throw new Error(`no case for ${key}`);
      let target: Target | undefined;
      try {
        target = await pgTarget(scenario.migrated === false ? { migrate: false } : {});
        const arranged = await scenario.arrange?.(target.driver);
        const jobId = typeof arranged === 'string' ? arranged : undefined;
        const env = typeof arranged === 'object' ? arranged : { JOB_ID: jobId ?? '' };
        const stdout =
          scenario.serves === undefined
            ? await runBlock(block, path.dir, { ...target.env, ...env })
            : await serveBlock(block, { ...target.env, ...env }, scenario.serves);
        await scenario.check(target.driver, stdout, jobId);
      } finally {
        await target?.dispose();
      }
    });
  }
});

/** Runs a serving block's one command until `serves` has checked it; answers its stdout. */
async function serveBlock(
  block: string,
  env: Readonly<Record<string, string>>,
  serves: (url: string) => Promise<void>,
): Promise<string> {
  const served = start([...(commandsIn(block)[0] ?? []), '--port', '0'], env);
  try {
    const [, url] = await served.waitFor(/dashboard at (\S+)/);
    await serves(url ?? '');
  } finally {
    expect(await served.stop('SIGINT')).toBe(0);
  }
  return served.output().stdout;
}

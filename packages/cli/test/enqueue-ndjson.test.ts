import { readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { Driver } from '@berth/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Connection } from '../src/connect.js';
import { berth, berthJson } from './support/berth.js';
import { pgTarget, redisTarget, type Target } from './support/targets.js';

/** Every `enqueueMany` call the CLI's own driver makes, per run (see the mock below). */
const batches: number[] = [];

// The CLI opens its driver through connect(); this one counts the driver's enqueueMany calls and
// their sizes, and otherwise is the real driver on the real server.
async function countingConnect(
  original: () => Promise<typeof import('../src/connect.js')>,
): Promise<typeof import('../src/connect.js')> {
  const real = await original();
  return {
    ...real,
    async connect(...args: Parameters<typeof real.connect>): Promise<Connection> {
      const connection = await real.connect(...args);
      const driver: Driver = connection.driver;
      const counted = new Proxy(driver, {
        get(target, key, receiver) {
          if (key === 'enqueueMany') {
            return async (requests: Parameters<Driver['enqueueMany']>[0]) => {
              batches.push(requests.length);
              return target.enqueueMany(requests);
            };
          }
          const value: unknown = Reflect.get(target, key, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      return { ...connection, driver: counted };
    },
  };
}

// Files share one module graph (isolate: false). The mock is set up for this file only, on a fresh
// graph (another file may have loaded connect.js unmocked), and taken down after it: a hoisted
// vi.mock would stay for every later file in the worker, whose runs would then mix two graphs'
// error classes (a CONFIG_INVALID shown as an unexpected error).
let run: typeof import('../src/main.js').run;
beforeAll(async () => {
  vi.doMock('../src/connect.js', countingConnect);
  vi.resetModules();
  ({ run } = await import('../src/main.js'));
});
afterAll(() => {
  vi.doUnmock('../src/connect.js');
  vi.resetModules();
});

/** `berth ...args` in this process, `input` on stdin (a pipe); answers the exit code and output. */
async function inProcess(args: readonly string[], input: string) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { out: '', err: '' };
  stdout.on('data', (chunk: Buffer) => {
    chunks.out += chunk.toString();
  });
  stderr.on('data', (chunk: Buffer) => {
    chunks.err += chunk.toString();
  });
  const code = await run(args, { stdin: Readable.from([input]), stdout, stderr, env: {} });
  return { code, stdout: chunks.out, stderr: chunks.err };
}

const total = async (driver: Driver, state: 'ready' | 'delayed'): Promise<number> =>
  (await driver.stats()).reduce((sum, queue) => sum + queue.counts[state], 0);

describe.each([
  ['pg', () => pgTarget()],
  ['redis', redisTarget],
] as const)('berth enqueue --ndjson on %s', (_kind, open) => {
  let target: Target;
  let dir: string;
  beforeAll(async () => {
    target = await open();
    dir = await mkdtemp(join(tmpdir(), 'berth-ndjson-test-'));
  });
  afterAll(async () => {
    await target.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('10,000 lines from stdin become 10,000 jobs in 20 enqueueMany calls of 500', async () => {
    const lines = Array.from({ length: 10_000 }, (_, n) =>
      JSON.stringify({ name: 'bulk.job', payload: { n }, queue: n % 10 === 0 ? 'tens' : 'bulk' }),
    );
    // The run spools stdin under a temporary directory of its own: other test files run the CLI
    // at the same time, and their spools in the shared one are none of this run's business.
    const spoolRoot = await mkdtemp(join(dir, 'spool-'));
    const readyBefore = await total(target.driver, 'ready');
    batches.length = 0;
    const sharedTmp = process.env.TMPDIR;
    process.env.TMPDIR = spoolRoot;
    const ran = await inProcess(
      ['enqueue', '--ndjson', '-', ...target.flags, '--json'],
      `${lines.join('\n')}\n`,
    ).finally(() => {
      if (sharedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = sharedTmp;
    });
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({
      jobs: 10_000,
      enqueued: 10_000,
      deduped: 0,
      batches: 20,
      queues: { bulk: 9_000, tens: 1_000 },
    });
    expect(batches).toEqual(Array.from({ length: 20 }, () => 500));
    // The copy of stdin the second pass read is gone.
    expect(readdirSync(spoolRoot)).toEqual([]);
    expect((await total(target.driver, 'ready')) - readyBefore).toBe(10_000);
    const [tens] = (await target.driver.list({ queue: 'tens', limit: 1 })).jobs;
    expect(tens).toMatchObject({ name: 'bulk.job', queue: 'tens' });
  });

  it('a file takes every field the single enqueue takes, and a held key counts as deduped', async () => {
    const file = join(dir, 'jobs.ndjson');
    writeFileSync(
      file,
      [
        '{"name":"email.send","payload":{"to":"ada@example.com"},"queue":"mail","priority":5,"maxAttempts":2,"idempotencyKey":"welcome-ada"}',
        '',
        '{"name":"email.send","queue":"mail","idempotencyKey":"welcome-ada"}',
        '{"name":"report.build","delay":"1h"}',
        '{"name":"report.build","delayMs":60000}',
        `{"name":"report.build","runAt":"${new Date(Date.now() + 3_600_000).toISOString()}"}`,
      ].join('\r\n'),
    );
    const ran = await berth(['enqueue', '--ndjson', file, ...target.flags]);
    expect(ran.stderr).toBe('');
    expect(ran.stdout).toBe(
      `enqueued 5 jobs from ${file} in 1 batches: 4 new, 1 deduped; queues mail 2, default 3\n`,
    );
    const [mail] = (await target.driver.list({ name: 'email.send' })).jobs;
    expect(mail).toMatchObject({
      queue: 'mail',
      priority: 5,
      maxAttempts: 2,
      idempotencyKey: 'welcome-ada',
      payload: { to: 'ada@example.com' },
      state: 'ready',
    });
    expect(
      (await target.driver.list({ name: 'report.build', state: 'delayed' })).jobs,
    ).toHaveLength(3);
  });
});

describe('berth enqueue --ndjson refuses a bad line by its number, before anything is enqueued', () => {
  let target: Target;
  beforeAll(async () => {
    target = await redisTarget();
  });
  afterAll(async () => {
    await target.dispose();
  });
  const good = '{"name":"ok.job"}\n'.repeat(600);

  it('a line that is not a job object is a usage error (exit 2) naming the line, its echo escaped', async () => {
    const notJson = await berth(['enqueue', '--ndjson', ...target.flags], {
      input: `${good}{"name":"x"\u001b]8;;http://evil\u0007}\n`,
    });
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('line 601: not JSON: {"name":"x"\\x1b]8;;http://evil\\x07}');
    expect(notJson.stderr).not.toContain('\u001b');

    const field = await berth(['enqueue', '--ndjson', '-', ...target.flags, '--json'], {
      input: `${good}\n{"name":"x","colour\\u009b31m":1}\n`,
    });
    expect(field.code).toBe(2);
    expect(JSON.parse(field.stderr)).toMatchObject({
      code: 'USAGE_INVALID',
      message: expect.stringContaining('line 602: "colour\\u009b31m" is not a field a line takes'),
    });

    const two = await berth(['enqueue', '--ndjson', ...target.flags], {
      input: '{"name":"x","delay":"1h","runAt":5}\n',
    });
    expect(two.stderr).toContain(
      'line 1: give one of delay, delayMs and runAt, not delay and runAt',
    );
    expect(await total(target.driver, 'ready')).toBe(0);
  });

  it('a value the contract refuses is JOB_INVALID (exit 1) naming the line and field', async () => {
    const ran = await berth(['enqueue', '--ndjson', '-', ...target.flags, '--json'], {
      input: `${good}{"name":"x","priority":1.5}\n`,
    });
    expect(ran.code).toBe(1);
    expect(JSON.parse(ran.stderr)).toMatchObject({
      code: 'JOB_INVALID',
      detail: 'line 601: priority must be an integer',
      meta: { field: 'priority' },
    });
    expect(await total(target.driver, 'ready')).toBe(0);
  });

  it('--ndjson with a NAME or a single-job flag, or a file that is not there, is a usage error', async () => {
    const both = await berth(['enqueue', 'email.send', '--ndjson', '-', ...target.flags]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--ndjson takes every job from its lines');
    const missing = await berth([
      'enqueue',
      '--ndjson',
      '/nonexistent/jobs.ndjson',
      ...target.flags,
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--ndjson cannot read /nonexistent/jobs.ndjson (ENOENT)');
    const none = await berthJson(['enqueue', '--ndjson', ...target.flags]);
    expect(none.doc).toMatchObject({ jobs: 0, enqueued: 0, batches: 0 });
  });
});

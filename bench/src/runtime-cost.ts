/**
 * The runtime's own cost per job: `createWorker` over the memory driver, over a driver that does
 * nothing (so only the runtime's work is left), and the memory driver alone in a claim→ackMany
 * loop. One child process per run, modes interleaved round by round; prints CPU µs per job and
 * jobs/s, medians over rounds. Not part of `pnpm bench`:
 *
 *   pnpm --filter @berth/bench exec tsx --conditions=@berth/source src/runtime-cost.ts [--jobs 20000] [--rounds 3] [--modes a,b] [--prefetch n]
 *
 * `worker-pg` (not run by default) is `createWorker` on PostgreSQL (`BERTH_PG_URL`, else
 * 127.0.0.1:5432/test) in a schema of its own, dropped after; its CPU is the client's only.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  type AckItem,
  type ClaimedJob,
  createClient,
  createWorker,
  type Driver,
  defineJob,
} from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { Counter } from './countdown.ts';

const MODES = ['driver-loop', 'worker-memory', 'worker-null', 'worker-pg'] as const;
type Mode = (typeof MODES)[number];

interface Result {
  readonly mode: Mode;
  readonly jobs: number;
  readonly cpuUs: number;
  readonly wallMs: number;
}

const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback);
};

/** A driver whose claim hands out prepared rows and whose settles land at once: the runtime alone. */
function nullDriver(total: number): Driver {
  const base = createMemoryDriver();
  const now = base.clock.now();
  const rows: ClaimedJob[] = [];
  for (let seq = 0; seq < total; seq++) {
    rows.push({
      id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
      runId: `00000000-0000-4000-9000-${String(seq).padStart(12, '0')}`,
      name: 'noop',
      queue: 'default',
      payload: { seq },
      state: 'running',
      priority: 0,
      attempts: 1,
      maxAttempts: 3,
      runAt: now,
      createdAt: now,
      updatedAt: now,
      claim: 1,
      claimedBy: 'null',
      visibleAt: now + 60_000,
      resumed: false,
    });
  }
  let next = 0;
  return {
    ...base,
    async claim(request) {
      const limit = request.limit ?? 1;
      const out = rows.slice(next, next + limit);
      next += out.length;
      return out;
    },
    async ackMany(items: readonly AckItem[]) {
      return items.map(() => true);
    },
    async extend() {
      return true;
    },
  };
}

async function runWorker(driver: Driver, jobs: number, enqueue: boolean): Promise<Result> {
  // `--handler-ms n`: each handler waits n ms (I/O), so claims can overlap with running jobs.
  const handlerMs = Number(arg('handler-ms', '0'));
  const noop = defineJob<{ seq: number }>({
    name: 'noop',
    run:
      handlerMs > 0
        ? () => new Promise((resolve) => setTimeout(resolve, handlerMs))
        : async () => {},
  });
  if (enqueue) {
    const client = createClient({ driver, jobs: [noop] });
    for (let first = 0; first < jobs; first += 1_000) {
      const items = [];
      for (let i = first; i < Math.min(jobs, first + 1_000); i++) {
        items.push({ job: noop, payload: { seq: i } });
      }
      await client.enqueueMany(items);
    }
  }
  const done = new Counter();
  const prefetch = Number(arg('prefetch', '0'));
  const worker = createWorker({
    driver,
    jobs: [noop],
    concurrency: Number(arg('concurrency', '1000')),
    visibilityTimeoutMs: 60_000,
    ...(prefetch > 0 ? { prefetch } : {}),
  });
  worker.on('completed', () => done.add());
  const cpu = process.cpuUsage();
  const start = performance.now();
  await worker.start();
  await done.reach(jobs);
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  await worker.stop({ graceMs: 1_000 });
  return { mode: 'worker-memory', jobs, cpuUs: used.user + used.system, wallMs };
}

async function runDriverLoop(jobs: number): Promise<Result> {
  const driver = createMemoryDriver();
  for (let first = 0; first < jobs; first += 1_000) {
    const requests = [];
    for (let i = first; i < Math.min(jobs, first + 1_000); i++) {
      requests.push({ name: 'noop', payload: { seq: i } });
    }
    await driver.enqueueMany(requests);
  }
  const cpu = process.cpuUsage();
  const start = performance.now();
  let acked = 0;
  while (acked < jobs) {
    const claimed = await driver.claim({
      queues: ['default'],
      workerId: 'loop',
      visibilityTimeoutMs: 60_000,
      limit: 1_000,
    });
    await driver.ackMany(
      claimed.map((job) => ({ fence: { jobId: job.id, workerId: 'loop', claim: job.claim } })),
    );
    acked += claimed.length;
  }
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { mode: 'driver-loop', jobs, cpuUs: used.user + used.system, wallMs };
}

async function runPg(jobs: number): Promise<Result> {
  const { createPgDriver } = await import('@berth/driver-pg');
  const { default: pg } = await import('pg');
  const url = process.env.BERTH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `rtperf_cost_${process.pid}`;
  const driver = createPgDriver({ connectionString: url, schema });
  try {
    await driver.migrate();
    return { ...(await runWorker(driver, jobs, true)), mode: 'worker-pg' };
  } finally {
    await driver.close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}

async function child(mode: Mode, jobs: number): Promise<Result> {
  if (mode === 'driver-loop') return runDriverLoop(jobs);
  if (mode === 'worker-pg') return runPg(jobs);
  if (mode === 'worker-memory') return runWorker(createMemoryDriver(), jobs, true);
  return { ...(await runWorker(nullDriver(jobs), jobs, false)), mode };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function parent(): Promise<void> {
  const jobs = arg('jobs', '20000');
  const rounds = Number(arg('rounds', '3'));
  const modes = arg('modes', 'driver-loop,worker-memory,worker-null').split(',') as Mode[];
  const results: Result[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const mode of modes) {
      const result = await new Promise<Result>((resolve, reject) => {
        const proc = fork(
          fileURLToPath(import.meta.url),
          [
            '--child',
            mode,
            '--jobs',
            jobs,
            '--prefetch',
            arg('prefetch', '0'),
            '--concurrency',
            arg('concurrency', '1000'),
          ],
          {
            execArgv: process.execArgv,
          },
        );
        proc.once('message', (message) => resolve(message as Result));
        proc.once('exit', (code) => {
          if (code !== 0) reject(new Error(`${mode} exited ${code}`));
        });
      });
      results.push(result);
      console.log(
        `round ${round + 1} ${mode.padEnd(14)} ${(result.cpuUs / result.jobs).toFixed(1)} µs/job  ${Math.round((result.jobs / result.wallMs) * 1_000)} jobs/s`,
      );
    }
  }
  for (const mode of modes) {
    const mine = results.filter((result) => result.mode === mode);
    const us = median(mine.map((result) => result.cpuUs / result.jobs));
    const rate = median(mine.map((result) => (result.jobs / result.wallMs) * 1_000));
    console.log(`median ${mode.padEnd(14)} ${us.toFixed(1)} µs/job  ${Math.round(rate)} jobs/s`);
  }
}

const childAt = process.argv.indexOf('--child');
if (childAt === -1) {
  await parent();
} else {
  const mode = process.argv[childAt + 1] as Mode;
  const result = await child(mode, Number(arg('jobs', '20000')));
  process.send?.(result);
  process.exit(0);
}

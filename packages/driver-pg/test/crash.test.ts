import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverUrl } from '@berth/test-servers';
import { afterEach, describe, expect, it } from 'vitest';
import { openPgDriver } from './pg-factory.js';

const JOBS = 4;
const VT_MS = 1_000;
const fixture = fileURLToPath(new URL('./fixtures/crash-worker.ts', import.meta.url));
// The child runs the fixture's TypeScript on source, as the tests do, through tsx's loader.
const tsx = createRequire(import.meta.url).resolve('tsx/esm');

interface Child {
  readonly process: ChildProcess;
  /** Resolves when the child printed `line`; rejects when it exits first. */
  readonly printed: (line: string) => Promise<void>;
  readonly exited: Promise<number | null>;
}

function startWorker(env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--conditions=@berth/source', '--import', tsx, fixture], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: { line: string; resolve: () => void; reject: (error: Error) => void }[] = [];
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      for (const waiter of waiters) {
        waiter.reject(new Error(`worker exited (${code}) before "${waiter.line}":\n${err}`));
      }
      resolve(code);
    });
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const waiter of [...waiters]) {
      if (out.split('\n').includes(waiter.line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  return {
    process: child,
    exited,
    printed: (line) =>
      out.split('\n').includes(line)
        ? Promise.resolve()
        : new Promise((resolve, reject) => waiters.push({ line, resolve, reject })),
  };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a worker killed with SIGKILL mid-job', () => {
  it('loses nothing: another worker completes every job after the lease lapses, without rerunning completed steps', async () => {
    const { driver, schema, dispose } = await openPgDriver();
    cleanups.push(dispose);
    const dir = mkdtempSync(join(tmpdir(), 'berth-crash-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const stepLog = join(dir, 'steps.log');
    const env = {
      CRASH_PG_URL: await serverUrl('pg'),
      CRASH_SCHEMA: schema,
      CRASH_STEP_LOG: stepLog,
      CRASH_JOBS: String(JOBS),
      CRASH_VT_MS: String(VT_MS),
    };
    const ids: string[] = [];
    for (let n = 0; n < JOBS; n += 1) {
      ids.push((await driver.enqueue({ name: 'crash.ship', payload: { n }, maxAttempts: 5 })).id);
    }

    const doomed = startWorker({ ...env, CRASH_MODE: 'hang' });
    cleanups.push(() => {
      doomed.process.kill('SIGKILL');
    });
    await doomed.printed('HANGING');
    doomed.process.kill('SIGKILL');
    expect(await doomed.exited).toBe(null);
    const midway = await Promise.all(ids.map((id) => driver.get(id)));
    expect(midway.map((job) => job?.state)).toEqual(ids.map(() => 'running'));

    const rescuer = startWorker({ ...env, CRASH_MODE: 'finish' });
    cleanups.push(() => {
      rescuer.process.kill('SIGKILL');
    });
    await rescuer.printed('FINISHED');
    expect(await rescuer.exited).toBe(0);

    const finished = await Promise.all(ids.map((id) => driver.get(id)));
    for (const job of finished) {
      // The second attempt is the rescuer's: it claimed the row once the first lease lapsed.
      expect(job).toMatchObject({ state: 'completed', attempts: 2 });
    }
    const runs = readFileSync(stepLog, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => line.split(' '));
    const pids = [...new Set(runs.map(([, , pid]) => pid))];
    expect(pids).toEqual([String(doomed.process.pid), String(rescuer.process.pid)]);
    for (const [index, id] of ids.entries()) {
      const ofJob = runs.filter(([, jobId]) => jobId === id);
      const byPid = (pid: number | undefined) =>
        ofJob.filter(([, , at]) => at === String(pid)).map(([step]) => step);
      // label and pack completed before the kill: they never run again.
      expect(byPid(doomed.process.pid)).toEqual(['label', 'pack', 'hand-over']);
      expect(byPid(rescuer.process.pid)).toEqual(['hand-over']);
      const runId = finished[index]?.runId;
      if (runId === undefined) throw new Error(`job ${id} vanished`);
      const steps = await driver.steps.list(runId);
      expect(steps.map((step) => [step.name, step.status, step.attempts])).toEqual([
        ['label', 'completed', 1],
        ['pack', 'completed', 1],
        ['hand-over', 'completed', 1],
      ]);
    }
    const { jobs } = await driver.list({ name: 'crash.ship' });
    expect(jobs).toHaveLength(JOBS);
  }, 60_000);
});

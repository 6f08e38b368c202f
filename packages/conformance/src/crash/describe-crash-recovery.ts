import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Driver } from '@berth/core';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnWorker } from './spawn-worker.js';

/** A fresh, empty store, a driver on it, and the environment that opens it in another process. */
export interface CrashTarget {
  readonly driver: Driver;
  /** Added to each worker process's environment; `driverModule` reads it. */
  readonly env: Readonly<Record<string, string>>;
  readonly dispose: () => Promise<void>;
}

export interface CrashRecoveryOptions {
  readonly open: () => Promise<CrashTarget>;
  /**
   * Absolute path of a module whose default export opens a driver on the target's store from
   * `process.env`, on the `Clock` it is given (it runs in the worker processes).
   */
  readonly driverModule: string;
  /** Node flags for the worker processes, e.g. a TypeScript loader when the module is TypeScript. */
  readonly execArgv?: readonly string[];
  /**
   * The lease the workers take (default 60 000 ms). The rescuer's clock runs twice
   * this ahead, so to it the killed worker's leases have lapsed from its start.
   */
  readonly visibilityTimeoutMs?: number;
}

/**
 * The workers' default lease: as long as the case's own timeout, so no lease of a live worker
 * lapses within the case however late a loaded machine runs its renewals. (With a 1 s lease, a
 * worker whose renewal came more than ~0.7 s late ended its attempt, and it or the other worker
 * claimed the job once more: a third attempt.) The rescue does not wait for the killed worker's
 * leases to lapse in real time: the rescuer runs on a clock ahead by twice the lease.
 */
const CRASH_LEASE_MS = 60_000;
const JOBS = 4;
const here = import.meta.url;
// From source (tests) the worker is TypeScript, from the published kit it is the built file.
const workerScript = fileURLToPath(
  new URL(here.endsWith('.ts') ? './crash-worker.ts' : './crash-worker.js', here),
);

/**
 * The crash scenario for a driver whose store outlives its process: a worker killed with SIGKILL
 * mid-job loses nothing — once its leases lapse another worker completes every job, and steps
 * that completed before the kill never run again.
 */
export function describeCrashRecovery(options: CrashRecoveryOptions): void {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  describe('a worker killed with SIGKILL mid-job', () => {
    it('loses nothing: another worker completes every job after the lease lapses, without rerunning completed steps', async () => {
      const { driver, env: driverEnv, dispose } = await options.open();
      cleanups.push(dispose);
      const dir = mkdtempSync(join(tmpdir(), 'berth-crash-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const stepLog = join(dir, 'steps.log');
      const leaseMs = options.visibilityTimeoutMs ?? CRASH_LEASE_MS;
      const env = {
        ...driverEnv,
        CRASH_DRIVER_MODULE: options.driverModule,
        CRASH_STEP_LOG: stepLog,
        CRASH_JOBS: String(JOBS),
        CRASH_VT_MS: String(leaseMs),
      };
      const start = (mode: 'hang' | 'finish') => {
        const worker = spawnWorker(workerScript, options.execArgv ?? [], {
          ...env,
          CRASH_MODE: mode,
          // Every lease the killed worker took ends within `leaseMs` after the kill (its last
          // renewal came before it), and the rescuer starts after the kill: on a clock ahead by
          // twice the lease, each has lapsed when the rescuer first looks, by the contract's
          // rule that every instant is the driver's clock's.
          CRASH_CLOCK_AHEAD_MS: String(mode === 'finish' ? 2 * leaseMs : 0),
        });
        cleanups.push(() => {
          worker.process.kill('SIGKILL');
        });
        return worker;
      };
      const ids: string[] = [];
      for (let n = 0; n < JOBS; n += 1) {
        ids.push((await driver.enqueue({ name: 'crash.ship', payload: { n }, maxAttempts: 5 })).id);
      }

      const doomed = start('hang');
      await doomed.printed('HANGING');
      doomed.process.kill('SIGKILL');
      expect(await doomed.exited).toBe(null);
      const midway = await Promise.all(ids.map((id) => driver.get(id)));
      expect(midway.map((job) => job?.state)).toEqual(ids.map(() => 'running'));

      const rescuer = start('finish');
      await rescuer.printed('FINISHED');
      expect(await rescuer.exited).toBe(0);

      const finished = await Promise.all(ids.map((id) => driver.get(id)));
      for (const job of finished) {
        // The second attempt is the rescuer's: it claimed the row once the first lease lapsed,
        // and its own lease never lapsed, so nobody claimed the row a third time.
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
        const stepsBy = (pid: number | undefined) =>
          ofJob.filter(([, , at]) => at === String(pid)).map(([step]) => step);
        // label and pack completed before the kill: they never run again.
        expect(stepsBy(doomed.process.pid)).toEqual(['label', 'pack', 'hand-over']);
        expect(stepsBy(rescuer.process.pid)).toEqual(['hand-over']);
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
}

import { afterEach } from 'vitest';
import { createWorker, type Driver, type Worker } from '../../src/index.js';
import { recordingLogger } from './runtime.js';

type WorkerOptions = Parameters<typeof createWorker>[0];
type Jobs = WorkerOptions['jobs'];
/** What a test sets on a worker: everything but its driver and jobs. */
export type WorkerSettings = Partial<Omit<WorkerOptions, 'driver' | 'jobs'>>;

/**
 * The workers of one test file, made with the file's `defaults` (and a recording logger unless
 * given) and stopped with no grace after every test.
 */
export function testWorkers(defaults: WorkerSettings) {
  const workers: Worker[] = [];
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop({ graceMs: 0 })));
  });
  const make = (driver: Driver, jobs: Jobs, settings: WorkerSettings = {}): Worker => {
    const worker = createWorker({
      logger: recordingLogger().logger,
      ...defaults,
      ...settings,
      driver,
      jobs,
    } as WorkerOptions);
    workers.push(worker);
    return worker;
  };
  return {
    make,
    async start(driver: Driver, jobs: Jobs, settings: WorkerSettings = {}): Promise<Worker> {
      const worker = make(driver, jobs, settings);
      await worker.start();
      return worker;
    },
  };
}

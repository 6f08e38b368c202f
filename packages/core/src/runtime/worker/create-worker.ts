import { configInvalid } from '../../errors/refusals.js';
import type { AnyJobDefinition, JobResultOf } from '../jobs/job-types.js';
import { loadOtel } from '../otel/load-otel.js';
import { drain } from './drain.js';
import { WorkerCore } from './worker-core.js';
import { checkWorkerOptions } from './worker-options.js';
import type {
  StopOptions,
  Worker,
  WorkerEvents,
  WorkerJobsOf,
  WorkerOptions,
} from './worker-types.js';

/** How long `stop()` lets running attempts finish when it names no grace, ms. */
export const DEFAULT_GRACE_MS = 30_000;

/**
 * A worker: claims jobs of its queues as it has free slots, runs them with leases renewed, and
 * settles them in batches. Works through the driver contract alone, so the same on every driver.
 * Its shared state is one WorkerCore; this is its life (start, stop) and its public face.
 */
export function createWorker<const J extends readonly AnyJobDefinition[]>(
  options: WorkerOptions<J>,
): Worker<JobResultOf<J[number]>, WorkerJobsOf<J[number]>> {
  const worker = new WorkerCore(checkWorkerOptions(options));
  const { driver, wake } = worker;
  void loadOtel();

  // The grace bounds the whole stop, whatever driver call hangs (see drain.ts).
  const stopWithin = async (graceMs: number, startedAt: number): Promise<void> => {
    worker.state = 'stopping';
    wake.stopDue();
    worker.slots.close();
    await drain({ worker, graceMs, startedAt });
    worker.stopWaiting();
    await worker.hooks.wait();
    worker.state = 'stopped';
  };

  return {
    workerId: worker.workerId,
    async start() {
      if (worker.state === 'running') return;
      if (worker.state !== 'idle') {
        throw configInvalid({
          option: 'worker',
          reason: 'was stopped and cannot start again',
          allowed: 'starts once; to work again, create a new one',
          example: 'worker = createWorker({ driver, jobs, concurrency: 10 }); await worker.start()',
        });
      }
      // An unmigrated or unreachable backend fails the start at once, not every poll after it.
      await driver.check();
      // The tracing API (when installed) is loaded before any attempt, so none waits for it.
      await loadOtel();
      // stop() (or another start) ran while the check or the load was out.
      if (worker.state !== 'idle') return;
      worker.state = 'running';
      await wake.open();
      // stop() ran while the subscription was being made: it must not start claiming now.
      if (worker.stopping !== undefined) {
        await wake.unsubscribeDriver();
        return;
      }
      worker.loop.start();
      worker.unrun.start();
    },
    stop(stopOptions: StopOptions = {}) {
      const graceMs = stopOptions.graceMs ?? DEFAULT_GRACE_MS;
      if (typeof graceMs !== 'number' || !Number.isFinite(graceMs) || graceMs < 0) {
        return Promise.reject(
          configInvalid({
            option: 'graceMs',
            reason: `is ${String(graceMs)}; it must be a finite number of ms >= 0`,
            allowed: 'must be a finite number of ms >= 0',
            example: 'worker.stop({ graceMs: 30_000 })',
          }),
        );
      }
      if (worker.state === 'idle') {
        worker.state = 'stopped';
        return Promise.resolve();
      }
      worker.stopping ??= stopWithin(graceMs, driver.clock.now());
      return worker.stopping;
    },
    // The emitter carries results as stored JSON; each is what its job's `run` returned.
    on: (event, listener) =>
      worker.events.on(event, listener as (payload: WorkerEvents[typeof event]) => void),
    running: () => worker.handlersRunning(),
  };
}

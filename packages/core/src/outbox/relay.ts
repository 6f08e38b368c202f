import type { Driver } from '../contract/driver.js';
import type { EnqueueRequest, JobError } from '../contract/records.js';
import { isBerthError } from '../errors/berth-error.js';
import { type BackgroundLogger, silentLogger } from '../runtime/background-logger.js';
import { toJobError } from '../runtime/jobs/job-error.js';
import type { BatchOutcome, OutboxStore, StagedJob, StagedRow } from './outbox-types.js';

export interface OutboxRelayOptions {
  readonly store: OutboxStore;
  /** The queue the staged jobs go to (any driver). */
  readonly driver: Driver;
  /** Rows per take. Default 500. */
  readonly batchSize?: number;
  /** How often an idle relay looks for rows when no wake came, ms. Default 1 000. */
  readonly pollIntervalMs?: number;
  readonly logger?: BackgroundLogger;
}

export interface OutboxRelay {
  /** Relays until stopped: a batch after a batch while rows wait, then on a wake or a poll. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Relays until the outbox is empty; answers how many rows left it (relayed or dead). */
  drain(): Promise<number>;
}

/** A refusal belongs to the row (it will never be enqueued as it is); anything else to the queue. */
const refused = (error: unknown): boolean =>
  isBerthError(error, 'JOB_INVALID') || isBerthError(error, 'JOB_DUPLICATE');

/**
 * Moves staged rows into the queue, in staging order, a batch at a time. Each job keeps the id
 * staging gave it, so a relay that died after enqueueing and before finishing its batch makes
 * the same jobs again, `deduped`: every staged job becomes exactly one job. A row the queue
 * refuses (JOB_INVALID, JOB_DUPLICATE) leaves the batch `dead` with the refusal and the rows
 * behind it go on; a queue that fails (DRIVER_UNAVAILABLE) gives the batch back untouched, to be
 * taken again after `pollIntervalMs`. Several relays may run: the store hands each row to one.
 */
export function createOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { store, driver } = options;
  const batchSize = options.batchSize ?? 500;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const logger = options.logger ?? silentLogger;
  let running: Promise<void> | undefined;
  let stopping = false;
  let wake: () => void = () => {};
  let woken = false;

  /** Lands one run of jobs; refused rows are found one by one when the batch is refused. */
  const enqueueJobs = async (jobs: readonly StagedJob[], outcome: Outcome): Promise<void> => {
    const requests: EnqueueRequest[] = jobs.map((job) => ({ ...job.request, id: job.id }));
    try {
      await driver.enqueueMany(requests);
      outcome.relayed.push(...jobs.map((job) => job.id));
      return;
    } catch (error) {
      if (!refused(error)) throw error;
    }
    for (const [index, job] of jobs.entries()) {
      try {
        await driver.enqueue(requests[index] as EnqueueRequest);
        outcome.relayed.push(job.id);
      } catch (error) {
        if (!refused(error)) throw error;
        outcome.dead.push({ id: job.id, error: toJobError(error) });
      }
    }
  };

  /** One batch: answers how many rows it took (0: the outbox is empty). */
  const relayOnce = async (): Promise<number> => {
    const batch = await store.take(batchSize);
    if (batch === undefined) return 0;
    const outcome: Outcome = { relayed: [], dead: [] };
    try {
      let jobs: StagedJob[] = [];
      for (const row of batch.rows) {
        if (row.kind === 'job') {
          jobs.push(row);
          continue;
        }
        if (jobs.length > 0) await enqueueJobs(jobs, outcome);
        jobs = [];
        await publishEvent(driver, row, outcome);
      }
      if (jobs.length > 0) await enqueueJobs(jobs, outcome);
    } catch (error) {
      await batch.abandon().catch(() => {});
      throw error;
    }
    await batch.finish(outcome);
    for (const dead of outcome.dead) {
      logger.warn('outbox row refused by the queue; kept dead in the outbox', {
        id: dead.id,
        error: dead.error,
      });
    }
    return batch.rows.length;
  };

  const drain = async (): Promise<number> => {
    let total = 0;
    for (let taken = await relayOnce(); taken > 0; taken = await relayOnce()) total += taken;
    return total;
  };

  const idle = () =>
    new Promise<void>((resolve) => {
      if (woken || stopping) {
        woken = false;
        resolve();
        return;
      }
      const timer = setTimeout(done, pollIntervalMs);
      wake = done;
      function done() {
        clearTimeout(timer);
        wake = () => {};
        woken = false;
        resolve();
      }
    });

  const loop = async (unlisten: (() => Promise<void>) | undefined): Promise<void> => {
    try {
      while (!stopping) {
        try {
          if ((await relayOnce()) > 0) continue;
        } catch (error) {
          logger.error('outbox relay failed; the batch is taken again after pollIntervalMs', {
            error,
          });
        }
        await idle();
      }
    } finally {
      await unlisten?.().catch(() => {});
    }
  };

  return {
    async start() {
      if (running !== undefined) return;
      stopping = false;
      const unlisten = await store.onStaged?.(() => {
        woken = true;
        wake();
      });
      running = loop(unlisten);
    },
    async stop() {
      stopping = true;
      wake();
      await running;
      running = undefined;
    },
    drain,
  };
}

interface Outcome extends BatchOutcome {
  readonly relayed: string[];
  readonly dead: { id: string; error: JobError }[];
}

async function publishEvent(
  driver: Driver,
  row: Extract<StagedRow, { kind: 'event' }>,
  outcome: Outcome,
): Promise<void> {
  try {
    await driver.events.publish(
      row.name,
      row.payload,
      row.ttl === undefined ? undefined : { ttl: row.ttl },
    );
    outcome.relayed.push(row.id);
  } catch (error) {
    if (!refused(error)) throw error;
    outcome.dead.push({ id: row.id, error: toJobError(error) });
  }
}

import type { JobRecord } from '../../contract/records.js';
import type { AnyJobDefinition, SettledOutcome } from '../jobs/job-types.js';
import type { LogShipper } from '../logs/log-shipper.js';
import { announceJobSettled } from '../settle-hub.js';
import type { Admitted } from './admission.js';
import type { Attempt } from './attempt.js';
import type { BatchCollectors } from './batch-collector.js';
import type { LeaseKeeper } from './lease-keeper.js';
import type { RuntimeLogger } from './logger.js';
import type { SettleDeps } from './settle-attempt.js';
import type { SlotWaits } from './slot-waits.js';

/** What every attempt of one worker shares: made once per worker, never per job. */
export interface ProcessDeps extends SettleDeps {
  readonly registry: ReadonlyMap<string, AnyJobDefinition>;
  readonly workerId: string;
  readonly keyBusyDelayMs: number;
  readonly logger: RuntimeLogger;
  readonly defaultStepTimeoutMs?: number;
  readonly eventPollMs?: number;
  /** Bounced jobs and released slots: a release makes the jobs waiting for it due at once. */
  readonly slots: SlotWaits;
  /** The worker's one lease-renewal timer: every claimed job is in it until its handler ends. */
  readonly keeper: LeaseKeeper;
  /** Starts `onSettled` for an outcome that landed; the worker tracks it until it ends. */
  readonly onSettled: (
    definition: AnyJobDefinition,
    outcome: SettledOutcome,
    job: JobRecord,
  ) => void;
  /** The attempt's handler ended (or never started): its worker slot is free now. */
  readonly handlerEnded: (attempt: Attempt) => void;
  /** Work an ended attempt still does (its settle, its slot's release): stop() waits for it. */
  readonly settling: { began(attempt: Attempt): void; ended(attempt: Attempt): void };
  /** The attempt began waiting here for its key's slot: it runs nothing, its slot is free. */
  readonly waitsForKey: () => void;
  /** The worker's one flusher of `ctx.log` lines. */
  readonly logShipper: LogShipper;
  /** Where the attempts of batch jobs gather until their batch runs. */
  readonly batches: BatchCollectors;
}

/**
 * Gives the concurrency slot up once the handler has really ended: an aborted handler that
 * ignores its signal still runs, and still counts against the limit, so its slot is renewed
 * until it returns (or the worker stops, and the slot frees at its ttl).
 */
export async function releaseAfter(
  deps: ProcessDeps,
  logger: RuntimeLogger,
  admission: Admitted,
  handlerSettled: Promise<void>,
): Promise<void> {
  if (admission.slot === undefined) return;
  const stillRunning = await deps.slots.holdWhile(handlerSettled, () => admission.renew());
  if (stillRunning) {
    logger.warn('the worker stopped while an aborted handler still ran; its slot frees at its ttl');
    return;
  }
  await releaseNow(deps, logger, admission);
}

export async function releaseNow(
  deps: ProcessDeps,
  logger: RuntimeLogger,
  admission: Admitted,
): Promise<void> {
  await deps.slots.release(admission, logger);
}

/** Reports a claim's lease burials: the event per row, and the job's `onSettled`. */
export function announceBuried(
  deps: Pick<ProcessDeps, 'driver' | 'events' | 'registry' | 'onSettled'>,
  buried: readonly JobRecord[],
): void {
  for (const row of buried) {
    const state = row.state === 'failed' ? 'failed' : 'dead';
    const error = row.lastError ?? {
      code: 'LEASE_LAPSED',
      message: 'the lease lapsed on the final attempt',
    };
    deps.events.emit(state, { name: row.name, job: row, error });
    announceJobSettled(deps.driver, row.id);
    const definition = deps.registry.get(row.name);
    if (definition !== undefined) deps.onSettled(definition, { state, error }, row);
  }
}

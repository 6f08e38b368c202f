import {
  type Fence,
  isBerthError,
  leaseLost,
  type StepRecord,
  type StepStore,
  stepInvalid,
} from '@berth/core';
import { dropAux, type NatsContext } from './context.js';
import type { Row } from './index/row.js';
import type { StepLog } from './record.js';
import { fenced } from './settle.js';
import { appendEntry, readSteps, stepChange } from './step-log.js';

/**
 * Steps. A put appends an entry to the run's step log (see `step-log.ts`), then ONE conditional
 * write of the job's record, which must still hold the fence, moves the log's head to it. The
 * record decides: an entry it does not reach (a stale worker's, a crash between the two writes)
 * is garbage, never read, removed with the job. Reads fold the log the record names.
 */
export function createStepStore(context: NatsContext): StepStore {
  /** The run's record as this process last saw it (its own writes included). */
  async function runRow(runId: string): Promise<Row | undefined> {
    await context.mirror.syncOwn();
    const row = context.index.rowOfRun(runId);
    if (row !== undefined) return row;
    await context.mirror.syncFull();
    return context.index.rowOfRun(runId);
  }

  const stepsOf = (row: Row) => readSteps(context, row.id, row.job.runId, row.job.steps);

  /**
   * Puts of one job from this process, one after another: each moves the head the next one
   * follows, so puts in flight together (a run's parallel steps) queue here instead of racing
   * for the record and spending its retries.
   */
  const queues = new Map<string, Promise<void>>();
  function queued(jobId: string, put: () => Promise<void>): Promise<void> {
    const ran = (queues.get(jobId) ?? Promise.resolve()).then(put);
    const tail = ran.catch(() => {});
    queues.set(jobId, tail);
    void tail.then(() => {
      if (queues.get(jobId) === tail) queues.delete(jobId);
    });
    return ran;
  }

  return {
    async get(runId, name) {
      const row = await runRow(runId);
      return row === undefined
        ? undefined
        : (await stepsOf(row)).find((step) => step.name === name);
    },
    put: (record, fence) => queued(fence.jobId, () => put(record, fence)),
    async list(runId) {
      const row = await runRow(runId);
      return row === undefined ? [] : stepsOf(row);
    },
  };

  async function put(record: StepRecord, fence: Fence): Promise<void> {
    await context.mirror.syncOwn();
    const now = context.clock.now();
    const change = await stepChange(context, fence.jobId, record);
    // The entry names the head it follows: written again only when the head moved under it.
    const written = new Map<string | undefined, StepLog>();
    const landed = await fenced(
      context,
      fence,
      async (job) => {
        if (job.runId !== record.runId) {
          throw stepInvalid(
            `step ${JSON.stringify(record.name)} names run ${record.runId}, not run ${job.runId} of job ${job.id}`,
            { jobId: fence.jobId, runId: record.runId, step: record.name },
          );
        }
        const head = job.steps?.head;
        const log = written.get(head) ?? (await appendEntry(context, job.runId, job.steps, change));
        written.set(head, log);
        return { ...job, steps: log };
      },
      now,
    ).catch(async (error: unknown) => {
      // Only a refusal is known to have written no record. Any other failure may have lost
      // the answer of a write that landed: the record may name an entry, so they stay
      // (garbage at worst, removed with the job).
      if (isBerthError(error, 'STEP_INVALID')) await dropEntries(record.runId, written, undefined);
      throw error;
    });
    await dropEntries(record.runId, written, landed?.steps);
    if (landed === undefined) throw leaseLost(fence);
  }

  /** Removes the entries a put wrote that the record does not name (best effort: garbage). */
  async function dropEntries(
    runId: string,
    written: ReadonlyMap<string | undefined, StepLog>,
    kept: StepLog | undefined,
  ): Promise<void> {
    await Promise.all(
      [...written.values()]
        .filter((log) => log.head !== kept?.head)
        .map((log) => dropAux(context, context.subjects.stepEntry(runId, log.head))),
    );
  }
}

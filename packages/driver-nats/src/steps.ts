import {
  type Fence,
  isBerthError,
  leaseLost,
  type StepRecord,
  type StepStore,
  stepInvalid,
} from '@berth/core/driver';
import { dropAux, type NatsContext } from './context.js';
import type { Row } from './index/row.js';
import type { StepLog } from './record.js';
import { fenced } from './settle.js';
import { appendEntries, type Change, readSteps, stepChange } from './step-log.js';

/** A put waiting for its job's record write. */
interface Waiting {
  readonly record: StepRecord;
  readonly fence: Fence;
  readonly change: Change;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** Puts one record write may land together: the same fence and the same run. */
const sameBatch = (a: Waiting, b: Waiting): boolean =>
  a.fence.workerId === b.fence.workerId &&
  a.fence.claim === b.fence.claim &&
  a.record.runId === b.record.runId;

const settleWith = (waiting: Waiting, error: Error | undefined): void =>
  error === undefined ? waiting.resolve() : waiting.reject(error);

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
   * Puts of one job from this process wait in one queue: each record write lands every put
   * waiting behind the same fence at once (a run's parallel steps), in the order they were
   * called, instead of racing for the record and spending its retries.
   */
  const queues = new Map<string, Waiting[]>();

  function enqueuePut(waiting: Waiting): void {
    const queue = queues.get(waiting.fence.jobId);
    if (queue !== undefined) {
      queue.push(waiting);
      return;
    }
    const fresh = [waiting];
    queues.set(waiting.fence.jobId, fresh);
    void drain(waiting.fence.jobId, fresh);
  }

  async function drain(jobId: string, queue: Waiting[]): Promise<void> {
    while (queue.length > 0) {
      const [first] = queue;
      if (first === undefined) break;
      let count = 1;
      while (count < queue.length && sameBatch(first, queue[count] as Waiting)) count += 1;
      const batch = queue.splice(0, count);
      try {
        const errors = await land(batch);
        for (const [at, waiting] of batch.entries()) settleWith(waiting, errors[at]);
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    queues.delete(jobId);
  }

  return {
    async get(runId, name) {
      const row = await runRow(runId);
      return row === undefined
        ? undefined
        : (await stepsOf(row)).find((step) => step.name === name);
    },
    async put(record, fence) {
      const change = await stepChange(context, fence.jobId, record);
      await new Promise<void>((resolve, reject) => {
        enqueuePut({ record, fence, change, resolve, reject });
      });
    },
    async list(runId) {
      const row = await runRow(runId);
      return row === undefined ? [] : stepsOf(row);
    },
  };

  /** Lands one batch; answers each put's refusal (or undefined), in order. */
  async function land(batch: readonly Waiting[]): Promise<(Error | undefined)[]> {
    const [first] = batch;
    if (first === undefined) return [];
    const { fence } = first;
    await context.mirror.syncOwn();
    const now = context.clock.now();
    const runId = first.record.runId;
    // The entries name the head they follow: written again only when the head moved under them.
    const written = new Map<string | undefined, { log: StepLog; gens: readonly string[] }>();
    let wrongRun = '';
    const landed = await fenced(
      context,
      fence,
      async (job) => {
        if (job.runId !== runId) {
          wrongRun = job.runId;
          throw stepInvalid(`step names run ${runId}, not run ${job.runId}`, {});
        }
        const head = job.steps?.head;
        const changes = batch.map((waiting) => waiting.change);
        const made = written.get(head) ?? (await appendEntries(context, runId, job.steps, changes));
        written.set(head, made);
        return { ...job, steps: made.log };
      },
      now,
    ).catch(async (error: unknown) => {
      // Only a refusal is known to have written no record. Any other failure may have lost
      // the answer of a write that landed: the record may name the entries, so they stay
      // (garbage at worst, removed with the job).
      if (!isBerthError(error, 'STEP_INVALID')) throw error;
      await dropEntries(runId, written, undefined);
      return 'wrong run' as const;
    });
    if (landed === 'wrong run') {
      return batch.map(({ record }) =>
        stepInvalid(
          `step ${JSON.stringify(record.name)} names run ${record.runId}, not run ${wrongRun} of job ${fence.jobId}`,
          { jobId: fence.jobId, runId: record.runId, step: record.name },
        ),
      );
    }
    await dropEntries(runId, written, landed?.steps);
    return batch.map(() => (landed === undefined ? leaseLost(fence) : undefined));
  }

  /** Removes the entries a put wrote that the record does not name (best effort: garbage). */
  async function dropEntries(
    runId: string,
    written: ReadonlyMap<string | undefined, { log: StepLog; gens: readonly string[] }>,
    kept: StepLog | undefined,
  ): Promise<void> {
    await Promise.all(
      [...written.values()]
        .filter(({ log }) => log.head !== kept?.head)
        .flatMap(({ gens }) => gens)
        .map((gen) => dropAux(context, context.subjects.stepEntry(runId, gen))),
    );
  }
}

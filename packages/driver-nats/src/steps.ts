import { randomUUID } from 'node:crypto';
import {
  type Fence,
  isBerthError,
  leaseLost,
  type StepRecord,
  type StepStore,
  stepInvalid,
} from '@berth/core';
import { readBlob, writeBlob } from './blobs.js';
import { dropAux, type NatsContext } from './context.js';
import type { Row } from './index/row.js';
import { type BlobRef, decodeJson, encodeJson, type StoredJob } from './record.js';
import { fenced } from './settle.js';
import { token } from './subjects.js';
import { stepGen, withStep } from './transitions.js';

/** A step whose JSON is larger than a part: its key holds where the parts are. */
interface SpilledStep {
  readonly $parts: BlobRef;
}

const fieldOf = (name: string): string => `step-${token(name)}`;

/**
 * Steps. A step's payload is written first, under a key of its own generation; then ONE
 * conditional write of the job's record, which must still hold the fence, names that generation
 * for the step. The record decides: a payload no record names (a stale worker's write, a crash
 * between the two writes, an older generation) is garbage, never read, removed with the job.
 */
export function createStepStore(context: NatsContext): StepStore {
  const { aux, subjects } = context;

  async function readStep(row: Row, name: string): Promise<StepRecord | undefined> {
    const gen = stepGen(row.job, name);
    if (gen === undefined) return undefined;
    const entry = await aux.get(subjects.step(row.job.runId, name, gen));
    if (entry === null || entry.operation !== 'PUT') {
      throw new Error(
        `step ${JSON.stringify(name)} of run ${row.job.runId} names a payload that is gone`,
      );
    }
    const stored = decodeJson<StepRecord | SpilledStep>(entry.value);
    if (!('$parts' in stored)) return stored;
    return (await readBlob(context, row.id, fieldOf(name), stored.$parts)) as unknown as StepRecord;
  }

  /** The run's record as this process last saw it (its own writes included). */
  async function runRow(runId: string): Promise<Row | undefined> {
    await context.mirror.syncOwn();
    const row = context.index.rowOfRun(runId);
    if (row !== undefined) return row;
    await context.mirror.syncFull();
    return context.index.rowOfRun(runId);
  }

  return {
    async get(runId, name) {
      const row = await runRow(runId);
      return row === undefined ? undefined : readStep(row, name);
    },
    async put(record: StepRecord, fence: Fence) {
      await context.mirror.syncOwn();
      const now = context.clock.now();
      const gen = randomUUID().slice(0, 12);
      const key = subjects.step(record.runId, record.name, gen);
      const bytes = encodeJson(record);
      const value =
        bytes.length <= context.partBytes
          ? bytes
          : encodeJson({
              $parts: await writeBlob(context, fence.jobId, fieldOf(record.name), bytes),
            } satisfies SpilledStep);
      await aux.put(key, value);
      let replaced: string | undefined;
      const landed = await fenced(
        context,
        fence,
        (job) => {
          if (job.runId !== record.runId) {
            throw stepInvalid(
              `step ${JSON.stringify(record.name)} names run ${record.runId}, not run ${job.runId} of job ${job.id}`,
              { jobId: fence.jobId, runId: record.runId, step: record.name },
            );
          }
          replaced = stepGen(job, record.name);
          return withStep(job, record.name, gen);
        },
        now,
      ).catch(async (error: unknown) => {
        // Only a refusal is known to have written no record. Any other failure may have lost
        // the answer of a write that landed: the record may name this payload, so it stays
        // (garbage at worst, removed with the job).
        if (isBerthError(error, 'STEP_INVALID')) await dropAux(context, key);
        throw error;
      });
      if (landed === undefined) {
        await dropAux(context, key);
        throw leaseLost(fence);
      }
      if (replaced !== undefined) {
        await dropAux(context, subjects.step(record.runId, record.name, replaced));
      }
    },
    async list(runId) {
      const row = await runRow(runId);
      if (row === undefined) return [];
      const steps = await Promise.all((row.job.steps ?? []).map(([name]) => readStep(row, name)));
      return steps.filter((step): step is StepRecord => step !== undefined);
    },
  };
}

/** Removes the payloads of steps `before` named and `after` no longer does (best effort: garbage). */
export async function dropStepPayloads(
  context: NatsContext,
  before: StoredJob,
  after: StoredJob,
): Promise<void> {
  const dropped = (before.steps ?? []).filter(([name, gen]) => stepGen(after, name) !== gen);
  await Promise.all(
    dropped.map(([name, gen]) => dropAux(context, context.subjects.step(before.runId, name, gen))),
  );
}

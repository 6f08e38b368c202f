import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ClaimedJob,
  defineJob,
  isBerthError,
  type JobContext,
  type StepApi,
} from '@berth/core';
import { now, stepToken } from '../ledger/events.ts';
import type { LedgerWriter } from '../ledger/write.ts';
import type { StepGate } from './step-gate.ts';

export const STEPS_JOB = 'chaos.steps';
export const KEYED_JOB = 'chaos.keyed';
export const CRON_JOB = 'chaos.cron';
export const MAIN_QUEUE = 'chaos';
export const KEYED_QUEUE = 'keyed';
export const CRON_SCHEDULE = 'chaos-every-second';
/**
 * Slots a scheduler enqueues on taking the lead, at most: far more than a run can owe, so no
 * lead ever skips an owed slot (a lead owing more enqueues only the latest, by design). The run
 * sets the schedule's mark to the slot before it starts, so a lead enqueues only what is owed
 * since, however slowly the schedulers start or however often the lead changes.
 */
export const CATCH_UP_SLOTS = 600;
/** Kills and stalls must never exhaust a job: a dead letter would hide a loss. */
export const MAX_ATTEMPTS = 1_000;

export interface KeyedPayload {
  readonly key: string;
  readonly units: number;
  readonly unitMs: number;
}

/** What a completed `chaos.steps` job answers: each step's stored token, and its own claim. */
export interface StepsResult {
  readonly a: string;
  readonly b: string;
  readonly claim: number;
}

const ids = (job: ClaimedJob) => ({
  job: job.id,
  runId: job.runId,
  name: job.name,
  claim: job.claim,
});

/** What ended an attempt, for a reader of the ledger: the Berth code, else the error's name. */
const errorName = (error: unknown): string =>
  isBerthError(error)
    ? error.code
    : error instanceof Error
      ? `${error.name}: ${error.message.slice(0, 80)}`
      : String(error);

/** Told to the parent so a nemesis can pick a process that is running a job right now. */
export type KeyedNotice = { readonly type: 'holding' | 'released'; readonly key: string };

/** The chaos jobs, each recording what it does in the process's ledger. */
export function chaosJobs(
  ledger: LedgerWriter,
  notify: (notice: KeyedNotice) => void = () => {},
  gate?: Pick<StepGate, 'pass'>,
) {
  let executions = 0;
  const runStep = async (step: StepApi, job: ClaimedJob, name: string): Promise<string> => {
    try {
      // The step ignores its signal, as a handler busy in a call that takes none would: a zombie's
      // step then reaches its write, and the fence must refuse it.
      const token = await step.run(name, async ({ signal }) => {
        const token = stepToken(job.claim, process.pid, ++executions);
        ledger.append({ ev: 'step-run', ...ids(job), step: name, token }, now());
        await sleep(5 + Math.floor(Math.random() * 15));
        await gate?.pass(signal);
        return token;
      });
      ledger.append({ ev: 'step-got', ...ids(job), step: name, token }, now());
      return token;
    } catch (error) {
      if (isBerthError(error, 'LEASE_LOST')) {
        ledger.append({ ev: 'refused', ...ids(job), step: name }, now());
      }
      throw error;
    }
  };

  // `held` names what the parent sees the process holding while the handler runs: the key for
  // a keyed job, else the job's name. With `signal`, the hold ends when the attempt is aborted
  // (its lease lost): the handler may run on, but the job is no longer this process's.
  const handled = async <T>(
    job: ClaimedJob,
    held: string,
    body: () => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> => {
    ledger.append({ ev: 'start', ...ids(job), key: held }, now());
    notify({ type: 'holding', key: held });
    let holding = true;
    const release = () => {
      if (!holding) return;
      holding = false;
      notify({ type: 'released', key: held });
    };
    signal?.addEventListener('abort', release, { once: true });
    try {
      const answer = await body();
      ledger.append({ ev: 'end', ...ids(job), ok: true }, now());
      return answer;
    } catch (error) {
      ledger.append({ ev: 'end', ...ids(job), ok: false, error: errorName(error) }, now());
      throw error;
    } finally {
      signal?.removeEventListener('abort', release);
      release();
    }
  };

  const steps = defineJob<{ readonly n: number }>({
    name: STEPS_JOB,
    queue: MAIN_QUEUE,
    retry: { maxAttempts: MAX_ATTEMPTS, backoff: { initialMs: 50, factor: 2, maxMs: 500 } },
    run: ({ step, job, signal }) =>
      handled(
        job,
        STEPS_JOB,
        async () => {
          const a = await runStep(step, job, 'a');
          const b = await runStep(step, job, 'b');
          return { a, b, claim: job.claim } satisfies StepsResult;
        },
        signal,
      ),
  });

  // Work in units, each a point where the handler is seen running: a unit is recorded only while
  // the attempt's signal is not aborted, so an aborted attempt stops recording at once.
  const keyed = defineJob<KeyedPayload>({
    name: KEYED_JOB,
    queue: KEYED_QUEUE,
    retry: { maxAttempts: MAX_ATTEMPTS, backoff: { initialMs: 50, factor: 2, maxMs: 500 } },
    concurrency: { limit: 1, key: (payload) => payload.key },
    run: ({ payload, job, signal }: JobContext<KeyedPayload>) =>
      handled(job, payload.key, async () => {
        for (let unit = 0; unit < payload.units; unit++) {
          await sleep(payload.unitMs, undefined, { signal });
          if (signal.aborted) throw signal.reason;
          ledger.append({ ev: 'unit', ...ids(job), key: payload.key }, now());
        }
      }),
  });

  const cron = defineJob({
    name: CRON_JOB,
    queue: MAIN_QUEUE,
    retry: { maxAttempts: MAX_ATTEMPTS, backoff: { initialMs: 50, factor: 2, maxMs: 500 } },
    run: ({ job }) => handled(job, CRON_JOB, async () => undefined),
  });

  return { steps, keyed, cron, all: [steps, keyed, cron] as const };
}

import type { ClaimedJob, Fence } from '@berth/core';
import type { CaseContext } from '../kit.js';
import { Labeler, type Normalized, normalizeAnswer } from '../normalize.js';

/** One call of a scenario and what the driver answered, normalized. */
export interface TranscriptEntry {
  readonly op: string;
  readonly answer: Normalized;
}

/** What a golden scenario produces: compared whole with the one expected transcript. */
export type Transcript = readonly TranscriptEntry[];

/** What a scenario script gets: the case's driver and clock, and a pen for the transcript. */
export interface ScenarioContext extends CaseContext {
  /**
   * Calls `call` and writes its answer under `op` (through `project`, when given, to keep only
   * what the scenario is about). A refusal is written too, and stops the scenario: the steps
   * after it need the answer that never came.
   */
  answer<T>(op: string, call: () => Promise<T>, project?: (value: T) => unknown): Promise<T>;
  /** Calls `call`, expected to refuse, and writes the refusal (or, wrongly, the answer). */
  refusal(op: string, call: () => Promise<unknown>): Promise<void>;
  /** Writes something the kit saw rather than a driver answer (hook calls, onExhausted rows). */
  note(op: string, value: unknown): void;
  /** Moves the clock and writes where it now stands. */
  advance(ms: number): Promise<void>;
}

/** A scripted run on a fresh driver, whose transcript must equal the expected one. */
export interface GoldenScenario {
  readonly name: string;
  /** What the transcript shows, as a spec sentence. */
  readonly asserts: string;
  readonly play: (context: ScenarioContext) => Promise<void>;
}

/** Thrown by `answer` after writing a refusal: the rest of the script cannot run without it. */
class ScenarioStopped extends Error {}

/** Plays `scenario` on the case's driver and answers its transcript. */
export async function recordTranscript(
  scenario: GoldenScenario,
  context: CaseContext,
): Promise<Transcript> {
  const entries: TranscriptEntry[] = [];
  const normalize = {
    labels: new Labeler(),
    t0: context.t0,
    driverName: context.driver.name,
  };
  const write = (op: string, value: unknown) => {
    entries.push({ op, answer: normalizeAnswer(value, normalize) });
  };
  const pen: ScenarioContext = {
    ...context,
    async answer(op, call, project) {
      let value: Awaited<ReturnType<typeof call>>;
      try {
        value = await call();
      } catch (error) {
        if (error instanceof ScenarioStopped) throw error;
        write(op, error);
        throw new ScenarioStopped(`${scenario.name}: "${op}" refused`);
      }
      write(op, project === undefined ? value : project(value));
      return value;
    },
    async refusal(op, call) {
      try {
        write(op, await call());
      } catch (error) {
        write(op, error);
      }
    },
    note: write,
    async advance(ms) {
      await context.clock.advance(ms);
      write(`advance ${ms}ms`, `+${context.clock.now() - context.t0}`);
    },
  };
  try {
    await scenario.play(pen);
  } catch (error) {
    if (!(error instanceof ScenarioStopped)) throw error;
  }
  return entries;
}

/** The fence a claimed job's settles present. */
export const fenceOf = (job: ClaimedJob): Fence => ({
  jobId: job.id,
  workerId: job.claimedBy,
  claim: job.claim,
});

/** The one job a claim of limit 1 answered; the scenario stops when there is none. */
export function only(jobs: readonly ClaimedJob[]): ClaimedJob {
  const [job] = jobs;
  if (job === undefined || jobs.length !== 1) {
    throw new ScenarioStopped(`expected one claimed job, got ${jobs.length}`);
  }
  return job;
}

/** A uuid no scenario ever enqueues. */
export const NOBODY_QUEUED = '0b0d1e55-0000-4000-8000-00000000d00d';

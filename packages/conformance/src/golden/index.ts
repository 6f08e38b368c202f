import type { DriverFactory } from '../kit.js';
import { runCase } from '../run-case.js';
import { attemptHistory } from './attempts.js';
import { backfillLedger } from './backfills.js';
import { leaseBurial } from './claim.js';
import { deleteAnswers } from './delete.js';
import { dedupe, enqueueRetryOneMiss, enqueueRetryTwoMisses, onConflictError } from './enqueue.js';
import { expected } from './expected/index.js';
import { pagination } from './list.js';
import { jobLogs } from './logs.js';
import { cancelRefusals, promoteRefusals, tenancy } from './operator.js';
import { pauseResume } from './pause.js';
import {
  requeueFromStep,
  requeueKeyTaken,
  requeueNotFound,
  requeuePurgeRace,
  requeueRaceLost,
  requeueWrongState,
} from './requeue.js';
import { storedSchedules } from './schedules.js';
import { type GoldenScenario, recordTranscript, type Transcript } from './transcript.js';

/** Every golden scenario, in the order the kit runs them. */
export const goldenScenarios: readonly GoldenScenario[] = [
  requeueNotFound,
  requeueWrongState,
  requeueKeyTaken,
  requeueRaceLost,
  requeuePurgeRace,
  requeueFromStep,
  enqueueRetryOneMiss,
  enqueueRetryTwoMisses,
  dedupe,
  onConflictError,
  cancelRefusals,
  promoteRefusals,
  leaseBurial,
  pagination,
  tenancy,
  deleteAnswers,
  attemptHistory,
  pauseResume,
  jobLogs,
  backfillLedger,
  storedSchedules,
];

/** A scenario's name: one key of the expected transcripts. */
export type GoldenScenarioName = keyof typeof expected;

const isScenarioName = (name: string): name is GoldenScenarioName => Object.hasOwn(expected, name);

/** The scenarios' names: what `runGoldenScenario` and `expectedTranscript` take. */
export const GOLDEN_SCENARIOS: readonly GoldenScenarioName[] = goldenScenarios
  .map((scenario) => scenario.name)
  .filter(isScenarioName);

function scenarioNamed(name: string): GoldenScenario {
  const scenario = goldenScenarios.find((candidate) => candidate.name === name);
  if (scenario === undefined) {
    throw new Error(`no golden scenario "${name}"; known: ${GOLDEN_SCENARIOS.join(', ')}`);
  }
  return scenario;
}

/** The transcript every driver must produce for `name`, written by hand from the spec. */
export function expectedTranscript(name: string): Transcript {
  if (!isScenarioName(name)) {
    throw new Error(`no expected transcript "${name}"; known: ${GOLDEN_SCENARIOS.join(', ')}`);
  }
  return expected[name];
}

/**
 * Plays scenario `name` on a fresh driver from `factory` (kit clock at KIT_T0, kit hooks) and
 * answers its transcript, for comparing drivers with each other as well as with the golden one.
 */
export async function runGoldenScenario(factory: DriverFactory, name: string): Promise<Transcript> {
  const scenario = scenarioNamed(name);
  let transcript: Transcript = [];
  await runCase(factory, {
    title: scenario.asserts,
    run: async (context) => {
      transcript = await recordTranscript(scenario, context);
    },
  });
  return transcript;
}

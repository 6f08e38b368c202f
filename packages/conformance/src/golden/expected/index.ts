import type { Transcript } from '../transcript.js';
import { attemptHistory } from './attempt-history.js';
import { backfillLedger } from './backfill-ledger.js';
import { cancelRefusals } from './cancel-refusals.js';
import { dedupe } from './dedupe.js';
import { deleteAnswers } from './delete-answers.js';
import { enqueueRetryOneMiss } from './enqueue-retry-one-miss.js';
import { enqueueRetryTwoMisses } from './enqueue-retry-two-misses.js';
import { jobLogs } from './job-logs.js';
import { leaseBurial } from './lease-burial.js';
import { onConflictError } from './on-conflict-error.js';
import { pagination } from './pagination.js';
import { pauseResume } from './pause-resume.js';
import { promoteRefusals } from './promote-refusals.js';
import { requeueFromStep } from './requeue-from-step.js';
import { requeueKeyTaken } from './requeue-key-taken.js';
import { requeueNotFound } from './requeue-not-found.js';
import { requeuePurgeRace } from './requeue-purge-race.js';
import { requeueRaceLost } from './requeue-race-lost.js';
import { requeueWrongState } from './requeue-wrong-state.js';
import { storedSchedules } from './stored-schedules.js';
import { tenancy } from './tenancy.js';

/** The golden transcripts by scenario name, each written by hand from the contract. */
export const expected = {
  'requeue-not-found': requeueNotFound,
  'requeue-wrong-state': requeueWrongState,
  'requeue-key-taken': requeueKeyTaken,
  'requeue-race-lost': requeueRaceLost,
  'requeue-purge-race': requeuePurgeRace,
  'requeue-from-step': requeueFromStep,
  'enqueue-retry-one-miss': enqueueRetryOneMiss,
  'enqueue-retry-two-misses': enqueueRetryTwoMisses,
  dedupe,
  'on-conflict-error': onConflictError,
  'cancel-refusals': cancelRefusals,
  'promote-refusals': promoteRefusals,
  'lease-burial': leaseBurial,
  pagination,
  tenancy,
  'delete-answers': deleteAnswers,
  'attempt-history': attemptHistory,
  'pause-resume': pauseResume,
  'job-logs': jobLogs,
  'backfill-ledger': backfillLedger,
  'stored-schedules': storedSchedules,
} as const satisfies Readonly<Record<string, Transcript>>;

import { BerthError } from '../../errors/berth-error.js';
import { stepInvalid } from '../../errors/refusals.js';

interface StepWhere {
  readonly jobId: string;
  readonly runId: string;
  readonly step: string;
}

export function stepNameReused(where: StepWhere) {
  return stepInvalid(
    `step ${JSON.stringify(where.step)} is used twice in one attempt of run ${where.runId}; each step of a run needs its own name`,
    { ...where },
  );
}

/** A stored step of another kind under the same name: the handler changed between attempts. */
export function stepKindChanged(where: StepWhere, stored: string, used: string) {
  return stepInvalid(
    `step ${JSON.stringify(where.step)} of run ${where.runId} was stored as a ${stored} step and is now used as a ${used} step`,
    { ...where, stored, used },
  );
}

export function stepOutputNotJson(where: StepWhere, reason: string) {
  return stepInvalid(
    `step ${JSON.stringify(where.step)} answered a value that cannot be memoized: ${reason}`,
    { ...where, reason },
  );
}

export function stepTimedOut(where: StepWhere, timeoutMs: number) {
  return new BerthError({
    code: 'JOB_TIMEOUT',
    detail: `step ${JSON.stringify(where.step)} of job ${where.jobId} ran past its timeout of ${timeoutMs} ms`,
    fix: 'raise the step timeout or make the step honour its AbortSignal sooner',
    meta: { ...where, timeoutMs },
  });
}

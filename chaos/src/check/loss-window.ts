import type { Crash } from '../nemesis/server-crash.ts';
import type { JobFindings } from './jobs.ts';

/** Losses a crash was allowed to cause, by kind: acknowledged inside the documented window. */
export interface WindowLosses {
  readonly windowMs: number;
  readonly lost: number;
  readonly completedTwice: number;
  readonly stepReexecuted: number;
}

/**
 * Splits the losses a server with a documented loss window may cause (an acknowledged enqueue
 * lost, a completion lost so the job completed again, a step output lost so the step ran again)
 * by when they were acknowledged: from `windowMs` before a crash until the server was back is
 * inside the window; the findings answered keep only what is outside, each still a violation.
 */
export function splitByWindow(input: {
  readonly findings: JobFindings;
  /** When each acknowledged enqueue was answered. */
  readonly enqueuedAt: ReadonlyMap<string, number>;
  readonly crashes: readonly Crash[];
  readonly windowMs: number;
}): { readonly outside: JobFindings; readonly inside: WindowLosses } {
  const { findings, crashes, windowMs } = input;
  const inside = (at: number | undefined) =>
    at !== undefined && crashes.some((crash) => at >= crash.down - windowMs && at < crash.up);
  const lost = findings.lost.filter((id) => !inside(input.enqueuedAt.get(id)));
  const completedTwice = findings.completedTwice.filter(
    (id) => !inside(findings.completedTwiceAt.get(id)),
  );
  const stepReexecuted = findings.stepReexecuted.filter(
    (id) => !inside(findings.ackedStepLost.get(id)),
  );
  return {
    outside: { ...findings, lost, completedTwice, stepReexecuted },
    inside: {
      windowMs,
      lost: findings.lost.length - lost.length,
      completedTwice: findings.completedTwice.length - completedTwice.length,
      stepReexecuted: findings.stepReexecuted.length - stepReexecuted.length,
    },
  };
}

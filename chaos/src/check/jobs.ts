import type { JobRecord } from '@berth/core';
import type { StepsResult } from '../child/jobs.ts';
import { type LedgerEvent, tokenClaim } from '../ledger/events.ts';

export interface JobFindings {
  readonly completed: number;
  /** Acknowledged at enqueue, not completed at the end. */
  readonly lost: string[];
  /** More than one completion landed for one run. */
  readonly completedTwice: string[];
  /**
   * A step ran again under a claim that came after the claim whose output was stored, or a step
   * output a handler saw acknowledged (`step-got`) is not the one stored: its write was lost.
   */
  readonly stepReexecuted: string[];
  /** Per job, when the first acknowledged step output that is not the stored one was acknowledged. */
  readonly ackedStepLost: ReadonlyMap<string, number>;
  /** Per job completed twice, when its first completion was acknowledged. */
  readonly completedTwiceAt: ReadonlyMap<string, number>;
  /** A step ran again under a claim that came before the stored one (its run was cut short). */
  readonly inFlightReexecuted: number;
  /** A write (result or step) from a claim that a later claim had already superseded, landed. */
  readonly staleLanded: string[];
  /** Stale step writes the backend refused (LEASE_LOST), and attempts that saw their lease go. */
  readonly staleRefused: number;
  readonly leaseLost: number;
  readonly stuck: string[];
}

type StepEvent = Extract<LedgerEvent, { readonly ev: 'step-run' | 'step-got' }>;

const isStepsResult = (result: unknown): result is StepsResult =>
  typeof result === 'object' && result !== null && 'a' in result && 'b' in result;

/** Checks each acknowledged job against its final row and its ledger events. */
export function checkJobs(input: {
  readonly acknowledged: ReadonlySet<string>;
  readonly records: ReadonlyMap<string, JobRecord | undefined>;
  readonly events: ReadonlyMap<string, readonly LedgerEvent[]>;
}): JobFindings {
  const found = {
    lost: [] as string[],
    completedTwice: [] as string[],
    stepReexecuted: [] as string[],
    staleLanded: [] as string[],
    stuck: [] as string[],
  };
  const ackedStepLost = new Map<string, number>();
  const completedTwiceAt = new Map<string, number>();
  let completed = 0;
  let inFlight = 0;
  let refused = 0;
  let lapsed = 0;
  for (const id of input.acknowledged) {
    const record = input.records.get(id);
    const events = input.events.get(id) ?? [];
    refused += events.filter((event) => event.ev === 'refused').length;
    lapsed += events.filter((event) => event.ev === 'lease-lost').length;
    if (record?.state === 'running') found.stuck.push(id);
    if (record?.state !== 'completed') {
      found.lost.push(id);
      continue;
    }
    completed++;
    // Told apart by process too: a claim whose commit a crash lost is numbered again.
    const completions = events.filter((event) => event.ev === 'completed');
    if (new Set(completions.map((event) => `${event.claim}/${event.pid}`)).size > 1) {
      found.completedTwice.push(id);
      completedTwiceAt.set(id, completions[0]?.t ?? 0);
    }
    const starts = events.filter((event) => event.ev === 'start');
    const lastClaim = Math.max(record.claim, ...starts.map((event) => event.claim));
    if (isStepsResult(record.result)) {
      if (record.result.claim < lastClaim) found.staleLanded.push(id);
      for (const step of ['a', 'b'] as const) {
        const stored = record.result[step];
        const storedClaim = tokenClaim(stored);
        const others = (ev: 'step-run' | 'step-got') =>
          events.filter(
            (event): event is StepEvent =>
              event.ev === ev && event.step === step && event.token !== stored,
          );
        const runs = others('step-run');
        // An output the handler saw acknowledged must be the one stored: another means the
        // write was lost and the step ran again, however the claims compare.
        const ackedLost = others('step-got');
        const lostTokens = new Set(ackedLost.map((event) => event.token));
        const rerun = runs.some((event) => event.claim >= storedClaim) || ackedLost.length > 0;
        if (rerun && !found.stepReexecuted.includes(id)) found.stepReexecuted.push(id);
        const firstLost = ackedLost[0]?.t;
        if (firstLost !== undefined) {
          ackedStepLost.set(id, Math.min(firstLost, ackedStepLost.get(id) ?? firstLost));
        }
        inFlight += runs.filter(
          (event) => event.claim < storedClaim && !lostTokens.has(event.token),
        ).length;
        const producedAt = events.find(
          (event) => event.ev === 'step-run' && event.token === stored,
        )?.t;
        const superseded = starts.some(
          (event) => event.claim > storedClaim && producedAt !== undefined && event.t < producedAt,
        );
        if (superseded) found.staleLanded.push(id);
      }
    }
  }
  // One entry per job, however many of its steps or writes a finding holds.
  return {
    ...found,
    stepReexecuted: [...new Set(found.stepReexecuted)],
    staleLanded: [...new Set(found.staleLanded)],
    ackedStepLost,
    completedTwiceAt,
    completed,
    inFlightReexecuted: inFlight,
    staleRefused: refused,
    leaseLost: lapsed,
  };
}

import { STEPS_JOB } from '../src/child/jobs.ts';
import type { LedgerEvent } from '../src/ledger/events.ts';

/** The one job the checker tests' ledgers are about. */
export const ID = '00000000-0000-4000-8000-000000000001';

/** A ledger line of a `chaos.steps` attempt on job ID: `extra` adds or overrides fields. */
export const event = (ev: string, t: number, claim: number, extra: object = {}, pid = 100) =>
  ({
    ev,
    t,
    pid,
    job: ID,
    runId: 'run-1',
    name: STEPS_JOB,
    claim,
    key: STEPS_JOB,
    ...extra,
  }) as LedgerEvent;

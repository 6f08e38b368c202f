import { describe, expect, it } from 'vitest';
import { checkPartitions } from '../src/check/partition.ts';
import { recoveryTimes } from '../src/check/recovery.ts';
import { STEPS_JOB } from '../src/child/jobs.ts';
import type { LedgerEvent } from '../src/ledger/events.ts';

// A take-over is timed only for jobs the disrupted worker still held: an attempt it had lost
// (and another worker had taken) before the disruption may run on, but its job is not its own.
const LIVE = '00000000-0000-4000-8000-00000000000a';
const STALE = '00000000-0000-4000-8000-00000000000b';
const HUNG = '00000000-0000-4000-8000-00000000000c';

const event = (ev: string, t: number, job: string, claim: number, pid: number) =>
  ({ ev, t, pid, job, runId: `run-${job}`, name: STEPS_JOB, claim, key: STEPS_JOB }) as LedgerEvent;

// Worker 100 is disrupted at 10_000. It runs LIVE (claim 1), STALE (claim 1, lost at 4_000 and
// started by 200 under claim 2 at 5_500) and HUNG (claim 1, whose lease it lost by its own clock
// at 6_000: nobody started it yet). STALE's handler still runs (a write hung on a crashed server).
// Worker 200 takes LIVE over at 12_000; STALE is started again (claim 3) at 30_000, when 200 is
// killed in turn, and HUNG at 11_000.
const ledger = [
  event('start', 1_000, LIVE, 1, 100),
  event('start', 1_000, STALE, 1, 100),
  event('start', 1_000, HUNG, 1, 100),
  event('lease-lost', 4_000, STALE, 1, 100),
  event('start', 5_500, STALE, 2, 200),
  event('lease-lost', 6_000, HUNG, 1, 100),
  event('start', 11_000, HUNG, 2, 200),
  event('start', 12_000, LIVE, 2, 200),
  event('end', 14_000, STALE, 1, 100),
  event('start', 30_000, STALE, 3, 300),
];

describe('take-over times', () => {
  it('time a kill only by the jobs the killed worker still held', () => {
    const kill = { kind: 'kill', pid: 100, role: 'worker', at: 10_000 } as const;
    expect(recoveryTimes([kill], ledger)).toEqual([2_000]);
  });

  it('count and time a cut only by the jobs the cut-off worker still held', () => {
    const cut = { pid: 100, cut: 10_000, healed: 15_000, blocked: true, reachable: 15_100 };
    expect(checkPartitions([cut], ledger)[0]).toMatchObject({
      held: 1,
      reclaimed: 1,
      reclaimMs: 2_000,
    });
  });
});

import { type JobRecord, slotJobId } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { checkCron } from '../src/check/cron.ts';
import { byJob } from '../src/check/index-events.ts';
import { checkJobs } from '../src/check/jobs.ts';
import { overLimitUnits } from '../src/check/keyed.ts';
import { splitByWindow } from '../src/check/loss-window.ts';
import { type BackendReport, violations, windowFindings } from '../src/check/report.ts';
import { faultStalls } from '../src/check/stall.ts';
import { CRON_JOB, CRON_SCHEDULE, KEYED_JOB } from '../src/child/jobs.ts';
import type { LedgerEvent } from '../src/ledger/events.ts';
import { event, ID } from './ledger-fixture.ts';

// The checker must be able to fail: each finding is shown on a ledger made to hold it.
const completedRow = (result: object, claim: number) =>
  ({ id: ID, state: 'completed', claim, result }) as unknown as JobRecord;

const check = (events: LedgerEvent[], record: JobRecord | undefined) =>
  checkJobs({
    acknowledged: new Set([ID]),
    records: new Map([[ID, record]]),
    events: byJob(events),
  });

describe('checkJobs', () => {
  it('passes a job that ran its steps once and completed once', () => {
    const found = check(
      [
        event('start', 1, 1),
        event('step-run', 2, 1, { step: 'a', token: '1/100/1' }),
        event('step-run', 3, 1, { step: 'b', token: '1/100/2' }),
        event('completed', 4, 1),
      ],
      completedRow({ a: '1/100/1', b: '1/100/2', claim: 1 }, 1),
    );
    expect(found).toMatchObject({ completed: 1, lost: [], completedTwice: [], stepReexecuted: [] });
    expect(found.staleLanded).toEqual([]);
  });

  it('counts a step re-run under an earlier claim as in flight, under a later one as a bug', () => {
    const inFlight = check(
      [
        event('start', 1, 1),
        event('step-run', 2, 1, { step: 'a', token: '1/100/1' }),
        event('start', 5, 2, {}, 200),
        event('step-run', 6, 2, { step: 'a', token: '2/200/1' }, 200),
        event('step-run', 7, 2, { step: 'b', token: '2/200/2' }, 200),
      ],
      completedRow({ a: '2/200/1', b: '2/200/2', claim: 2 }, 2),
    );
    expect(inFlight.inFlightReexecuted).toBe(1);
    expect(inFlight.stepReexecuted).toEqual([]);

    const rerun = check(
      [
        event('start', 1, 1),
        event('step-run', 2, 1, { step: 'a', token: '1/100/1' }),
        event('start', 5, 2, {}, 200),
        event('step-run', 6, 2, { step: 'a', token: '2/200/1' }, 200),
        event('step-run', 7, 2, { step: 'b', token: '2/200/2' }, 200),
      ],
      completedRow({ a: '1/100/1', b: '2/200/2', claim: 2 }, 2),
    );
    expect(rerun.stepReexecuted).toEqual([ID]);
  });

  it('counts a job whose two stored steps both ran again once', () => {
    const found = check(
      [
        event('start', 1, 1),
        event('step-run', 2, 1, { step: 'a', token: '1/100/1' }),
        event('step-run', 3, 1, { step: 'b', token: '1/100/2' }),
        event('start', 5, 2, {}, 200),
        event('step-run', 6, 2, { step: 'a', token: '2/200/1' }, 200),
        event('step-run', 7, 2, { step: 'b', token: '2/200/2' }, 200),
      ],
      completedRow({ a: '1/100/1', b: '1/100/2', claim: 1 }, 2),
    );
    expect(found.stepReexecuted).toEqual([ID]);
    expect(found.staleLanded).toEqual([ID]);
  });

  it('counts a step whose acknowledged output is not the stored one as re-run (its write was lost)', () => {
    // Claim 1 saw step a's write acknowledged; the server lost it (a crash inside an async commit
    // window), so claim 2 ran the step again: the run under the earlier claim was not in flight.
    const lostWrite = check(
      [
        event('start', 1, 1),
        event('step-run', 2, 1, { step: 'a', token: '1/100/1' }),
        event('step-got', 3, 1, { step: 'a', token: '1/100/1' }),
        event('start', 5, 2, {}, 200),
        event('step-run', 6, 2, { step: 'a', token: '2/200/1' }, 200),
        event('step-got', 7, 2, { step: 'a', token: '2/200/1' }, 200),
        event('step-run', 8, 2, { step: 'b', token: '2/200/2' }, 200),
      ],
      completedRow({ a: '2/200/1', b: '2/200/2', claim: 2 }, 2),
    );
    expect(lostWrite).toMatchObject({ stepReexecuted: [ID], inFlightReexecuted: 0 });
    expect(lostWrite.ackedStepLost).toEqual(new Map([[ID, 3]]));
  });

  it('finds a stale result or step write, a double completion, a lost and a stuck job', () => {
    const staleResult = check(
      [event('start', 1, 1), event('start', 5, 2, {}, 200)],
      completedRow({ a: '1/100/1', b: '1/100/2', claim: 1 }, 2),
    );
    expect(staleResult.staleLanded).toContain(ID);

    const staleStep = check(
      [
        event('start', 1, 1),
        event('start', 5, 2, {}, 200),
        event('step-run', 6, 1, { step: 'a', token: '1/100/1' }),
        event('step-run', 7, 2, { step: 'b', token: '2/200/2' }, 200),
      ],
      completedRow({ a: '1/100/1', b: '2/200/2', claim: 2 }, 2),
    );
    expect(staleStep.staleLanded).toEqual([ID]);

    const twice = check(
      [event('completed', 1, 1), event('completed', 2, 2, {}, 200)],
      completedRow({ a: '1/100/1', b: '1/100/2', claim: 2 }, 2),
    );
    expect(twice.completedTwice).toEqual([ID]);

    expect(check([], undefined).lost).toEqual([ID]);
    const stuck = check([], { id: ID, state: 'running', claim: 1 } as unknown as JobRecord);
    expect(stuck).toMatchObject({ lost: [ID], stuck: [ID] });
  });
});

describe('overLimitUnits', () => {
  const keyed = (ev: string, t: number, job: string, claim = 1) =>
    ({ ev, t, pid: 1, job, runId: job, name: KEYED_JOB, claim, key: 'k' }) as LedgerEvent;

  it('counts units a holder ran while a later admission to its key ran', () => {
    const events = [
      keyed('start', 0, 'x'),
      keyed('unit', 50, 'x'),
      keyed('start', 60, 'y'),
      keyed('unit', 100, 'x'),
      keyed('unit', 110, 'y'),
      keyed('end', 200, 'y'),
      keyed('unit', 250, 'x'),
    ];
    expect(overLimitUnits(events, 1_500)).toBe(1);
  });

  it('forgives the first unit after a silence longer than the lease, not the next', () => {
    const events = [
      keyed('start', 0, 'x'),
      keyed('unit', 50, 'x'),
      keyed('start', 1_700, 'y'),
      keyed('unit', 3_000, 'x'),
      keyed('unit', 3_050, 'x'),
      keyed('end', 4_000, 'y'),
    ];
    expect(overLimitUnits(events, 1_500)).toBe(1);
  });
});

describe('checkCron', () => {
  it('finds a slot that ran twice and a slot between two that ran but never did', () => {
    const base = 1_800_000_000_000;
    const ran = (slot: number, runId: string) =>
      ({
        ev: 'completed',
        t: slot + 10,
        pid: 1,
        job: slotJobId(CRON_SCHEDULE, slot),
        runId,
        name: CRON_JOB,
        claim: 1,
      }) as LedgerEvent;
    const events = [
      ran(base, 'r0'),
      ran(base + 1_000, 'r1'),
      ran(base + 1_000, 'r1-again'),
      ran(base + 3_000, 'r3'),
    ];
    const found = checkCron(events, { from: base - 500, to: base + 5_000 });
    expect(found).toEqual({ slots: 4, firedTwice: [base + 1_000], missed: [base + 2_000] });
  });

  it('counts a slot whose job the backend was seen holding completed, though no worker wrote so', () => {
    const base = 1_800_000_000_000;
    const line = (ev: string, slot: number) =>
      ({
        ev,
        t: slot + 10,
        pid: 1,
        job: slotJobId(CRON_SCHEDULE, slot),
        runId: `r${slot}`,
        name: CRON_JOB,
        claim: 1,
      }) as LedgerEvent;
    // Slot 1's worker was killed after its ack landed: it wrote start and end, never completed.
    const events = [
      line('completed', base),
      line('start', base + 1_000),
      line('completed', base + 2_000),
    ];
    const window = { from: base - 500, to: base + 3_000 };
    expect(checkCron(events, window).missed).toEqual([base + 1_000]);
    const seen = new Set([slotJobId(CRON_SCHEDULE, base + 1_000)]);
    expect(checkCron(events, window, seen)).toEqual({ slots: 3, firedTwice: [], missed: [] });
  });
});

describe('violations', () => {
  const none = {
    completed: 1,
    lost: [],
    completedTwice: [],
    stepReexecuted: [],
    inFlightReexecuted: 0,
    staleLanded: [],
    staleRefused: 0,
    leaseLost: 0,
    stuck: [],
    ackedStepLost: new Map(),
    completedTwiceAt: new Map(),
  };
  const report = (missed: number[]): BackendReport => ({
    backend: 'pg',
    profile: 'ci',
    durationMs: 1,
    enqueued: 1,
    acknowledged: 1,
    jobs: none,
    keyed: { ...none, overLimitUnits: 0 },
    cron: { slots: 3, firedTwice: [], missed },
    workerKills: 1,
    zombies: 0,
    slotStalls: 0,
    slotStallTries: [],
    leaderKills: 1,
    killRecoveryMs: [],
    crashes: [{ downMs: 1 }],
    partitions: [],
  });

  it('counts a missed cron slot as a violation, whatever leader kills and server crashes the run saw', () => {
    const slot = Date.UTC(2026, 0, 1);
    expect(violations(report([]))).toEqual([]);
    expect(violations(report([slot]))).toEqual([
      'pg: 1 cron slots missed (e.g. 2026-01-01T00:00:00.000Z)',
    ]);
  });

  it('reports losses a documented window explains as that window, a job stuck in running still as a violation', () => {
    const lossy: BackendReport = {
      ...report([]),
      backend: 'redis-sentinel-partition',
      documentedWindow: 'no durability',
      jobs: { ...none, lost: [ID], stuck: [ID] },
    };
    expect(windowFindings(lossy)).toEqual([`redis-sentinel-partition: 1 jobs lost (e.g. ${ID})`]);
    expect(violations(lossy)).toEqual([
      `redis-sentinel-partition: 1 jobs stuck in running (e.g. ${ID})`,
    ]);
    const { documentedWindow: _, ...strict } = lossy;
    expect(violations(strict)).toContain(`redis-sentinel-partition: 1 jobs lost (e.g. ${ID})`);
    expect(windowFindings(strict)).toEqual([]);
  });
});

describe('faultStalls', () => {
  const completed = (t: number, pid = 100) => event('completed', t, 1, {}, pid);

  it('answers the longest gap between completions that overlaps each fault, the cut-off side left out', () => {
    const events = [
      completed(0),
      completed(100),
      completed(150, 7),
      completed(900),
      completed(950),
    ];
    expect(faultStalls([{ down: 120, up: 500 }], events)).toEqual([750]);
    expect(faultStalls([{ down: 10, up: 20 }], events)).toEqual([100]);
    const withIsolated = [...events, completed(400, 7)];
    expect(faultStalls([{ down: 120, up: 500 }], withIsolated)).toEqual([500]);
    expect(faultStalls([{ down: 120, up: 500 }], withIsolated, new Set([7]))).toEqual([800]);
  });
});

describe('splitByWindow', () => {
  it('keeps as violations only the losses acknowledged outside the window before a crash', () => {
    const ids = ['early', 'inside', 'after'];
    const findings = {
      ...checkJobs({ acknowledged: new Set(), records: new Map(), events: new Map() }),
      lost: ids,
      completedTwice: ['early', 'inside'],
      completedTwiceAt: new Map([
        ['early', 100],
        ['inside', 950],
      ]),
      stepReexecuted: ['inside', 'never-acked'],
      ackedStepLost: new Map([['inside', 990]]),
    };
    const { outside, inside } = splitByWindow({
      findings,
      enqueuedAt: new Map([
        ['early', 100],
        ['inside', 900],
        ['after', 5_000],
      ]),
      crashes: [{ down: 1_000, up: 2_000 }],
      windowMs: 600,
    });
    expect(outside).toMatchObject({
      lost: ['early', 'after'],
      completedTwice: ['early'],
      stepReexecuted: ['never-acked'],
    });
    expect(inside).toEqual({ windowMs: 600, lost: 1, completedTwice: 1, stepReexecuted: 1 });
  });
});

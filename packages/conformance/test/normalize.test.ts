import { driverUnavailable, jobDuplicate } from '@berth/core/driver';
import { describe, expect, it } from 'vitest';
import { expectedTranscript, GOLDEN_SCENARIOS } from '../src/index.js';
import { Labeler, normalizeAnswer } from '../src/normalize.js';

const T0 = Date.UTC(2026, 0, 1);
const context = () => ({ labels: new Labeler(), t0: T0, driverName: 'memory' });
const ID = '11111111-1111-4111-8111-111111111111';
const RUN = '22222222-2222-4222-8222-222222222222';

describe('normalizeAnswer', () => {
  it('labels ids and run ids in order of first appearance, errors included', () => {
    const ctx = context();
    expect(normalizeAnswer({ id: ID, runId: RUN, deduped: false }, ctx)).toEqual({
      id: 'job1',
      runId: 'run1',
      deduped: false,
    });
    const other = '33333333-3333-4333-8333-333333333333';
    const refusal = jobDuplicate({ name: 'mail', idempotencyKey: 'k' }, other);
    expect(normalizeAnswer(refusal, ctx)).toEqual({
      error: {
        code: 'JOB_DUPLICATE',
        meta: { name: 'mail', idempotencyKey: 'k', existingId: 'job2' },
      },
    });
  });

  it('renders a backfill run whole (not as a step record): its cursor as content, its job id as a job, instants as offsets', () => {
    const run = {
      runId: RUN,
      name: 'reindex',
      status: 'running',
      cursor: { id: ID, at: T0 },
      passes: 2,
      rowsDone: 200,
      jobId: ID,
      startedAt: T0,
      updatedAt: T0 + 1_000,
      internal: 'dropped',
    };
    expect(normalizeAnswer(run, context())).toEqual({
      runId: 'run1',
      name: 'reindex',
      status: 'running',
      cursor: { id: ID, at: T0 },
      passes: 2,
      rowsDone: 200,
      jobId: 'job1',
      startedAt: '+0',
      updatedAt: '+1000',
    });
  });

  it('keeps only contract fields of a record, instants as offsets, and shows an undefined field', () => {
    const record = {
      id: ID,
      runId: RUN,
      name: 'a',
      queue: 'default',
      payload: { at: T0 },
      state: 'ready',
      priority: 0,
      attempts: 0,
      maxAttempts: 3,
      runAt: T0 + 1_500,
      createdAt: T0,
      updatedAt: T0,
      claim: 0,
      claimedBy: undefined,
      seq: 7,
    };
    expect(normalizeAnswer(record, context())).toEqual({
      id: 'job1',
      runId: 'run1',
      name: 'a',
      queue: 'default',
      payload: { at: T0 },
      state: 'ready',
      priority: 0,
      attempts: 0,
      maxAttempts: 3,
      runAt: '+1500',
      createdAt: '+0',
      updatedAt: '+0',
      claimedBy: '(undefined)',
      claim: 0,
    });
  });

  it('renders cursors as "cursor", undefined as "(none)" and the driver name in meta', () => {
    expect(normalizeAnswer({ jobs: [], next: 'c1.x.y' }, context())).toEqual({
      jobs: [],
      next: 'cursor',
    });
    expect(normalizeAnswer(undefined, context())).toBe('(none)');
    const unavailable = driverUnavailable({ driver: 'memory', operation: 'enqueue' });
    expect(normalizeAnswer(unavailable, context())).toEqual({
      error: { code: 'DRIVER_UNAVAILABLE', meta: { driver: '(driver)', operation: 'enqueue' } },
    });
  });
});

describe('golden catalogue', () => {
  it('holds one expected transcript per scenario', () => {
    expect(GOLDEN_SCENARIOS.length).toBe(21);
    for (const name of GOLDEN_SCENARIOS) expect(expectedTranscript(name).length).toBeGreaterThan(0);
  });
});

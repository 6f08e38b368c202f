import type { BackfillStatus, Driver } from '@berth/core';
import fc from 'fast-check';

/**
 * The backfill-ledger ops of a differential sequence. Run and job ids come from small fixed
 * pools shared by both sides, so starts collide (a retried start), commits name stale passes
 * and runners, and by-id calls meet runs of other tenants.
 */
export type BackfillOp =
  | {
      readonly kind: 'bfStart';
      readonly run: number;
      readonly job: number;
      readonly name: string;
      readonly tenant?: string | undefined;
      readonly cursor?: number | undefined;
      readonly maxActive?: number | undefined;
    }
  | {
      readonly kind: 'bfCommit';
      readonly run: number;
      readonly job: number;
      readonly passes: number;
      /** Absent: next null, the run completes. */
      readonly next?: number | undefined;
      readonly rows: number;
    }
  | {
      readonly kind: 'bfTransition';
      readonly run: number;
      readonly from: readonly BackfillStatus[];
      readonly to: BackfillStatus;
      readonly job?: number | undefined;
      readonly tenant?: string | undefined;
    }
  | { readonly kind: 'bfGet'; readonly run: number; readonly tenant?: string | undefined }
  | {
      readonly kind: 'bfList';
      readonly name?: string | undefined;
      readonly status?: BackfillStatus | undefined;
      readonly tenant?: string | undefined;
      readonly limit?: number | undefined;
    };

const RUNS = [
  '0b0f11aa-0000-4000-8000-000000000d01',
  '0b0f11aa-0000-4000-8000-000000000d02',
  '0b0f11aa-0000-4000-8000-000000000d03',
] as const;
const JOBS = [
  '0b0f11aa-0000-4000-8000-000000000e01',
  '0b0f11aa-0000-4000-8000-000000000e02',
  '0b0f11aa-0000-4000-8000-000000000e03',
] as const;
const BACKFILLS = ['r1', 'r2'] as const;
const STATUSES: readonly BackfillStatus[] = [
  'running',
  'paused',
  'completed',
  'failed',
  'cancelled',
];

const runOf = (at: number): string => RUNS[at % RUNS.length] as string;
const jobOf = (at: number): string => JOBS[at % JOBS.length] as string;
/** `arbitrary` with odds `present` to `absent`, else undefined (not sent). */
const odds = <T>(present: number, absent: number, arbitrary: fc.Arbitrary<T>) =>
  fc.oneof(
    // First, so that shrinking drops the field.
    { weight: absent, arbitrary: fc.constant(undefined) },
    { weight: present, arbitrary },
  );
const slot = fc.nat({ max: RUNS.length - 1 });

export const backfillOpArbitraries = (
  tenants: readonly string[],
): { weight: number; arbitrary: fc.Arbitrary<BackfillOp> }[] => [
  {
    weight: 3,
    arbitrary: fc
      .record({
        run: slot,
        job: slot,
        name: fc.constantFrom(...BACKFILLS),
        tenant: odds(1, 4, fc.constantFrom(...tenants)),
        cursor: odds(1, 1, fc.nat({ max: 9 })),
        maxActive: odds(1, 3, fc.integer({ min: 1, max: 2 })),
      })
      .map((fields) => ({ kind: 'bfStart' as const, ...fields })),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({
        run: slot,
        job: slot,
        passes: fc.nat({ max: 3 }),
        next: odds(4, 1, fc.nat({ max: 99 })),
        rows: fc.nat({ max: 50 }),
      })
      .map((fields) => ({ kind: 'bfCommit' as const, ...fields })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        run: slot,
        from: fc.subarray([...STATUSES], { minLength: 1 }),
        to: fc.constantFrom(...STATUSES),
        job: odds(1, 1, slot),
        tenant: odds(1, 4, fc.constantFrom(...tenants)),
      })
      .map((fields) => ({ kind: 'bfTransition' as const, ...fields })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ run: slot, tenant: odds(1, 3, fc.constantFrom(...tenants)) })
      .map((fields) => ({ kind: 'bfGet' as const, ...fields })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        name: odds(1, 1, fc.constantFrom(...BACKFILLS)),
        status: odds(1, 3, fc.constantFrom(...STATUSES)),
        tenant: odds(1, 4, fc.constantFrom(...tenants)),
        limit: odds(1, 2, fc.integer({ min: 1, max: 3 })),
      })
      .map((fields) => ({ kind: 'bfList' as const, ...fields })),
  },
];

const tenantOf = (tenant: string | undefined) => (tenant === undefined ? {} : { tenantId: tenant });

/** Calls the ledger as the op says; refusals are thrown. */
export function applyBackfillOp(driver: Driver, op: BackfillOp): Promise<unknown> {
  const ledger = driver.backfills;
  switch (op.kind) {
    case 'bfStart':
      return ledger.start({
        runId: runOf(op.run),
        jobId: jobOf(op.job),
        name: op.name,
        ...tenantOf(op.tenant),
        ...(op.cursor === undefined ? {} : { cursor: { at: op.cursor } }),
        ...(op.maxActive === undefined ? {} : { maxActive: op.maxActive }),
      });
    case 'bfCommit':
      return ledger.commit(runOf(op.run), {
        jobId: jobOf(op.job),
        passes: op.passes,
        next: op.next === undefined ? null : { at: op.next },
        rows: op.rows,
      });
    case 'bfTransition':
      return ledger.transition(runOf(op.run), {
        from: op.from,
        to: op.to,
        ...(op.job === undefined ? {} : { jobId: jobOf(op.job) }),
        ...tenantOf(op.tenant),
      });
    case 'bfGet':
      return ledger.get(runOf(op.run), tenantOf(op.tenant));
    case 'bfList':
      return ledger.list({
        ...(op.name === undefined ? {} : { name: op.name }),
        ...(op.status === undefined ? {} : { status: op.status }),
        ...tenantOf(op.tenant),
        ...(op.limit === undefined ? {} : { limit: op.limit }),
      });
  }
}

import type { Driver } from '@berth/core';
import fc from 'fast-check';

/**
 * The stored-schedule ops of a differential sequence. Names and revisions come from small pools,
 * so creates collide, writes name stale revisions and by-name calls meet other tenants.
 */
export type ScheduleOp =
  | {
      readonly kind: 'schPut';
      readonly name: string;
      readonly tenant?: string | undefined;
      readonly revision: number;
      readonly cron: string;
      readonly paused: boolean;
      /** nextAt, as an offset from the sequence's t0. */
      readonly next: number;
      readonly n: number;
    }
  | { readonly kind: 'schGet'; readonly name: string; readonly tenant?: string | undefined }
  | {
      readonly kind: 'schRemove';
      readonly name: string;
      readonly tenant?: string | undefined;
      readonly revision: number;
    }
  | { readonly kind: 'schList'; readonly tenant?: string | undefined; readonly limit: number }
  | { readonly kind: 'schDue'; readonly ahead: number; readonly limit: number };

const NAMES = ['s1', 's2', 'S'] as const;
const CRONS = ['0 3 * * *', '*/5 * * * *'] as const;
/** Offsets of nextAt and of due's upTo from now: a minute apart and more, so an early due shows. */
const OFFSETS = [0, 1_000, 30_000, 90_000, 600_000] as const;

/** `arbitrary` with odds `present` to `absent`, else undefined (not sent). */
const odds = <T>(present: number, absent: number, arbitrary: fc.Arbitrary<T>) =>
  fc.oneof(
    // First, so that shrinking drops the field.
    { weight: absent, arbitrary: fc.constant(undefined) },
    { weight: present, arbitrary },
  );

export const scheduleOpArbitraries = (
  tenants: readonly string[],
): { weight: number; arbitrary: fc.Arbitrary<ScheduleOp> }[] => {
  const name = fc.constantFrom(...NAMES);
  const tenant = odds(1, 3, fc.constantFrom(...tenants));
  // Mostly a create, so that later ops meet stored schedules; else a revision, stale or not.
  const revision = fc.oneof(
    { weight: 2, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.nat({ max: 3 }) },
  );
  return [
    {
      weight: 6,
      arbitrary: fc
        .record({
          name,
          tenant,
          revision,
          cron: fc.constantFrom(...CRONS),
          paused: fc.boolean(),
          next: fc.constantFrom(...OFFSETS),
          n: fc.nat({ max: 9 }),
        })
        .map((fields) => ({ kind: 'schPut' as const, ...fields })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ name, tenant })
        .map((fields) => ({ kind: 'schGet' as const, ...fields })),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({ name, tenant, revision })
        .map((fields) => ({ kind: 'schRemove' as const, ...fields })),
    },
    {
      weight: 3,
      arbitrary: fc
        .record({ tenant, limit: fc.integer({ min: 1, max: 3 }) })
        .map((fields) => ({ kind: 'schList' as const, ...fields })),
    },
    {
      weight: 3,
      arbitrary: fc
        .record({ ahead: fc.constantFrom(...OFFSETS), limit: fc.integer({ min: 1, max: 3 }) })
        .map((fields) => ({ kind: 'schDue' as const, ...fields })),
    },
  ];
};

const tenantOf = (tenant: string | undefined) => (tenant === undefined ? {} : { tenantId: tenant });

/** Calls the store as the op says; refusals are thrown. */
export function applyScheduleOp(
  driver: Driver,
  op: ScheduleOp,
  t0: number,
  now: number,
): Promise<unknown> {
  const store = driver.schedules;
  switch (op.kind) {
    case 'schPut':
      return store.put(
        {
          name: op.name,
          ...tenantOf(op.tenant),
          cron: op.cron,
          job: 'report',
          payload: { n: op.n },
          paused: op.paused,
          nextAt: t0 + op.next,
        },
        op.revision,
      );
    case 'schGet':
      return store.get(op.name, tenantOf(op.tenant));
    case 'schRemove':
      return store.remove(op.name, op.revision, tenantOf(op.tenant));
    case 'schList':
      return store.list({ ...tenantOf(op.tenant), limit: op.limit });
    case 'schDue':
      return store.due(now + op.ahead, op.limit);
  }
}

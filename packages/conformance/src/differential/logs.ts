import type { LogLineInput } from '@berth/core';
import fc from 'fast-check';
import type { Target } from './ops.js';
import { nth, targetId, type World } from './world.js';

/**
 * The job-log ops of a differential sequence, in a file of their own. An append's lines are
 * made from the op (count lines at `now + i`), its `from` picked small so retried and
 * overlapping batches meet; a list names a job like every by-id op.
 */
export type LogOp =
  | {
      readonly kind: 'logAppend';
      /** Index among every fence handed out, stale ones included. */
      readonly fence: number;
      readonly from: number;
      readonly count: number;
    }
  | {
      readonly kind: 'logList';
      readonly target: Target;
      readonly tenant?: string | undefined;
      readonly after?: number | undefined;
      readonly limit?: number | undefined;
    };

const LEVELS = ['info', 'warn', 'error', 'debug'] as const;

export const logOpArbitraries = (
  target: fc.Arbitrary<Target>,
  tenants: readonly string[],
): { weight: number; arbitrary: fc.Arbitrary<LogOp> }[] => [
  {
    weight: 3,
    arbitrary: fc
      .record({
        fence: fc.nat({ max: 11 }),
        from: fc.constantFrom(0, 0, 1, 2, 3),
        count: fc.integer({ min: 1, max: 3 }),
      })
      .map((fields) => ({ kind: 'logAppend' as const, ...fields })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        target,
        tenant: fc.option(fc.constantFrom(...tenants), { nil: undefined, freq: 4 }),
        after: fc.option(fc.nat({ max: 4 }), { nil: undefined }),
        limit: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      })
      .map((fields) => ({ kind: 'logList' as const, ...fields })),
  },
];

/** Said instead of calling when an op names a fence or job the sequence has not made yet. */
const NOTHING_TO_NAME = '(nothing to name yet)';

export function applyLogOp(world: World, op: LogOp, now: number): Promise<unknown> | string {
  const { driver } = world;
  if (op.kind === 'logAppend') {
    const fence = nth(world.fences, op.fence);
    if (fence === undefined) return NOTHING_TO_NAME;
    const lines: LogLineInput[] = Array.from({ length: op.count }, (_, index) => ({
      at: now + index,
      level: LEVELS[(op.from + index) % LEVELS.length] ?? 'info',
      message: `line ${op.from + index} of claim ${fence.claim}`,
    }));
    return driver.logs.append(fence, { from: op.from, lines });
  }
  const id = targetId(world, op.target);
  if (id === undefined) return NOTHING_TO_NAME;
  return driver.logs.list(id, {
    ...(op.tenant === undefined ? {} : { tenantId: op.tenant }),
    ...(op.after === undefined ? {} : { after: op.after }),
    ...(op.limit === undefined ? {} : { limit: op.limit }),
  });
}

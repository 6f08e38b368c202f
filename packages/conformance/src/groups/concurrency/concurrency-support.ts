import type { Driver } from '@berth/core';
import type { CaseContext } from '../../kit.js';

/** Drivers racing in each concurrency case: the case's own and this many siblings. */
export const SIBLINGS = 4;

/** The case's driver and SIBLINGS more over the same store: independent processes of one app. */
export async function fleet(context: CaseContext): Promise<readonly Driver[]> {
  const others = await Promise.all(Array.from({ length: SIBLINGS }, () => context.sibling()));
  return [context.driver, ...others];
}

/** Settles every call; answers the fulfilled values and the rejections, in call order. */
export async function settleAll<T>(
  calls: readonly (() => Promise<T>)[],
): Promise<{ values: T[]; errors: unknown[] }> {
  const settled = await Promise.allSettled(calls.map((call) => call()));
  const values: T[] = [];
  const errors: unknown[] = [];
  for (const outcome of settled) {
    if (outcome.status === 'fulfilled') values.push(outcome.value);
    else errors.push(outcome.reason);
  }
  return { values, errors };
}

/** `items` rotated left by `by`: each racer walks the shared keys from a different start. */
export const rotate = <T>(items: readonly T[], by: number): T[] => [
  ...items.slice(by % items.length),
  ...items.slice(0, by % items.length),
];

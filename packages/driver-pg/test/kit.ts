import { describeDriver, type KitShard } from '@berth/conformance';
import { kitBudget } from '@berth/test-servers';
import { afterAll } from 'vitest';
import { memoryFactory } from './memory-factory.js';
import { closePgFactory, pgFactory } from './pg-factory.js';
import { pgServerFactory } from './server-factory.js';

/** How many files run the pg kit between them: it waits on the server far more than on CPU. */
export const KIT_SHARES = 3;

/** Registers this file's share of the conformance kit on pg (`conformance-<n>.test.ts`). */
export function describePgKit(index: number): void {
  const shard: KitShard = { index, count: KIT_SHARES };
  afterAll(closePgFactory);
  describeDriver('pg', pgFactory, {
    reference: memoryFactory,
    ...pgServerFactory(),
    ...kitBudget('server'),
    shard,
  });
}

import type { LeaseHolder, LeaseStore } from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { LEASES_LUA } from './lua/generated.js';
import { defineScript } from './scripts.js';

const LEASES = defineScript('leases', LEASES_LUA);
/** The same script, for its read-only `holder` op. */
const LEASE_HOLDER = defineScript('leases', LEASES_LUA, { readOnly: true });

type Op = 'acquire' | 'renew' | 'release' | 'acquireSlot' | 'renewSlot' | 'releaseSlot';

/** The script answers `[holder, expiresAt]` for a live lease, or nil (`null`) for none. */
const toHolder = (answer: unknown): LeaseHolder | undefined =>
  Array.isArray(answer) && typeof answer[0] === 'string'
    ? { holder: answer[0], expiresAt: Number(answer[1]) }
    : undefined;

export function createLeaseStore(context: RedisContext): LeaseStore {
  const call = async (op: Op, name: string, holder: string, ttlMs = 0, limit = 0) =>
    (await context.run(LEASES, context.clock.now(), [op, name, holder, ttlMs, limit])) === 1;
  return {
    acquire: (name, holder, ttlMs) => call('acquire', name, holder, ttlMs),
    renew: (name, holder, ttlMs) => call('renew', name, holder, ttlMs),
    release: (name, holder) => call('release', name, holder),
    holder: async (name) =>
      toHolder(await context.run(LEASE_HOLDER, context.clock.now(), ['holder', name, '', 0, 0])),
    acquireSlot: (key, limit, holder, ttlMs) => call('acquireSlot', key, holder, ttlMs, limit),
    renewSlot: (key, holder, ttlMs) => call('renewSlot', key, holder, ttlMs),
    releaseSlot: (key, holder) => call('releaseSlot', key, holder),
  };
}

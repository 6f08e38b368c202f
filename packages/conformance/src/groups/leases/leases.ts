import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';

const leaseCases: readonly KitCase[] = [
  {
    title: 'acquire of a free lease answers true and holds it against others until its ttl',
    run: async ({ driver, clock }) => {
      const { leases } = driver;
      expect(await leases.acquire('leader', 'a', 1_000)).toBe(true);
      expect(await leases.acquire('leader', 'b', 1_000)).toBe(false);
      await clock.advance(999);
      expect(await leases.acquire('leader', 'b', 1_000)).toBe(false);
      await clock.advance(1);
      expect(await leases.acquire('leader', 'b', 1_000)).toBe(true);
      expect(await leases.acquire('leader', 'a', 1_000)).toBe(false);
      expect(await leases.renew('leader', 'a', 1_000)).toBe(false);
    },
  },
  {
    title: 'acquire by the holder of an unexpired lease renews it from now',
    run: async ({ driver, clock }) => {
      const { leases } = driver;
      expect(await leases.acquire('leader', 'a', 1_000)).toBe(true);
      await clock.advance(500);
      expect(await leases.acquire('leader', 'a', 1_000)).toBe(true);
      await clock.advance(600);
      expect(await leases.acquire('leader', 'b', 1_000)).toBe(false);
      await clock.advance(400);
      expect(await leases.acquire('leader', 'b', 1_000)).toBe(true);
    },
  },
  {
    title:
      'renew extends the holder’s unexpired lease and answers false for another holder, an expired lease or none',
    run: async ({ driver, clock }) => {
      const { leases } = driver;
      expect(await leases.renew('leader', 'a', 1_000)).toBe(false);
      expect(await leases.acquire('leader', 'a', 1_000)).toBe(true);
      await clock.advance(800);
      expect(await leases.renew('leader', 'b', 1_000)).toBe(false);
      expect(await leases.renew('leader', 'a', 1_000)).toBe(true);
      await clock.advance(999);
      expect(await leases.acquire('leader', 'b', 1_000)).toBe(false);
      await clock.advance(1);
      expect(await leases.renew('leader', 'a', 1_000)).toBe(false);
      expect(await leases.acquire('leader', 'b', 1_000)).toBe(true);
    },
  },
  {
    title:
      'release by the holder frees the lease at once; release by anyone else answers false and frees nothing',
    run: async ({ driver }) => {
      const { leases } = driver;
      expect(await leases.release('leader', 'a')).toBe(false);
      expect(await leases.acquire('leader', 'a', 60_000)).toBe(true);
      expect(await leases.release('leader', 'b')).toBe(false);
      expect(await leases.acquire('leader', 'b', 60_000)).toBe(false);
      expect(await leases.release('leader', 'a')).toBe(true);
      expect(await leases.release('leader', 'a')).toBe(false);
      expect(await leases.acquire('leader', 'b', 60_000)).toBe(true);
    },
  },
  {
    title: 'release of an expired lease answers false, and the lease is free for anyone',
    run: async ({ driver, clock }) => {
      const { leases } = driver;
      expect(await leases.acquire('leader', 'a', 1_000)).toBe(true);
      await clock.advance(1_000);
      expect(await leases.release('leader', 'a')).toBe(false);
      expect(await leases.acquire('leader', 'b', 1_000)).toBe(true);
    },
  },
  {
    title:
      'holder answers the unexpired lease’s holder and expiry, and undefined for a lease never taken, released or expired',
    run: async ({ driver, clock }) => {
      const { leases } = driver;
      const t0 = clock.now();
      expect(await leases.holder('leader')).toBeUndefined();
      expect(await leases.acquire('leader', 'a', 1_000)).toBe(true);
      expect(await leases.holder('leader')).toEqual({ holder: 'a', expiresAt: t0 + 1_000 });
      await clock.advance(400);
      expect(await leases.renew('leader', 'a', 1_000)).toBe(true);
      expect(await leases.holder('leader')).toEqual({ holder: 'a', expiresAt: t0 + 1_400 });
      expect(await leases.holder('other')).toBeUndefined();
      await clock.advance(1_000);
      expect(await leases.holder('leader')).toBeUndefined();
      expect(await leases.acquire('leader', 'b', 1_000)).toBe(true);
      expect(await leases.holder('leader')).toEqual({ holder: 'b', expiresAt: t0 + 2_400 });
      expect(await leases.release('leader', 'b')).toBe(true);
      expect(await leases.holder('leader')).toBeUndefined();
      await expectRefusal(leases.holder(''), 'JOB_INVALID', { field: 'lease name' });
    },
  },
  {
    title: 'leases of different names are independent',
    run: async ({ driver }) => {
      const { leases } = driver;
      expect(await leases.acquire('scheduler', 'a', 1_000)).toBe(true);
      expect(await leases.acquire('retention', 'b', 1_000)).toBe(true);
      expect(await leases.acquire('scheduler', 'b', 1_000)).toBe(false);
      expect(await leases.release('retention', 'a')).toBe(false);
      expect(await leases.release('retention', 'b')).toBe(true);
      expect(await leases.renew('scheduler', 'a', 1_000)).toBe(true);
    },
  },
  {
    title:
      'lease calls with a ttl that is not a positive finite number, or an empty name or holder, answer JOB_INVALID',
    run: async ({ driver }) => {
      const { leases } = driver;
      for (const ttl of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expectRefusal(leases.acquire('leader', 'a', ttl), 'JOB_INVALID', { field: 'ttlMs' });
        await expectRefusal(leases.renew('leader', 'a', ttl), 'JOB_INVALID', { field: 'ttlMs' });
      }
      await expectRefusal(leases.acquire('', 'a', 1_000), 'JOB_INVALID', { field: 'lease name' });
      await expectRefusal(leases.acquire('leader', '', 1_000), 'JOB_INVALID', { field: 'holder' });
      await expectRefusal(leases.release('leader', ''), 'JOB_INVALID', { field: 'holder' });
      expect(await leases.acquire('leader', 'b', 1_000)).toBe(true);
    },
  },
];

const slotCases: readonly KitCase[] = [
  {
    title: 'acquireSlot grants up to limit slots of a key across holders, and no more',
    run: async ({ driver }) => {
      const { leases } = driver;
      expect(await leases.acquireSlot('tenant:acme', 2, 'w1', 1_000)).toBe(true);
      expect(await leases.acquireSlot('tenant:acme', 2, 'w2', 1_000)).toBe(true);
      expect(await leases.acquireSlot('tenant:acme', 2, 'w3', 1_000)).toBe(false);
      expect(await leases.acquireSlot('tenant:globex', 2, 'w3', 1_000)).toBe(true);
    },
  },
  {
    title: 'acquireSlot by a holder that has an unexpired slot renews it and takes no second slot',
    run: async ({ driver, clock }) => {
      const { leases } = driver;
      expect(await leases.acquireSlot('k', 2, 'w1', 1_000)).toBe(true);
      expect(await leases.acquireSlot('k', 2, 'w1', 1_000)).toBe(true);
      expect(await leases.acquireSlot('k', 2, 'w2', 1_000)).toBe(true);
      expect(await leases.acquireSlot('k', 2, 'w3', 1_000)).toBe(false);
      await clock.advance(500);
      expect(await leases.acquireSlot('k', 2, 'w1', 1_000)).toBe(true);
      await clock.advance(500);
      // w2's slot lapsed at 1000; w1's renewal holds to 1500.
      expect(await leases.acquireSlot('k', 2, 'w3', 1_000)).toBe(true);
      expect(await leases.acquireSlot('k', 2, 'w4', 1_000)).toBe(false);
    },
  },
  {
    title: 'a slot whose holder stopped renewing frees itself at its ttl',
    run: async ({ driver, clock }) => {
      const { leases } = driver;
      expect(await leases.acquireSlot('k', 1, 'w1', 1_000)).toBe(true);
      await clock.advance(999);
      expect(await leases.acquireSlot('k', 1, 'w2', 1_000)).toBe(false);
      await clock.advance(1);
      expect(await leases.acquireSlot('k', 1, 'w2', 1_000)).toBe(true);
      expect(await leases.renewSlot('k', 'w1', 1_000)).toBe(false);
      expect(await leases.releaseSlot('k', 'w1')).toBe(false);
    },
  },
  {
    title:
      'a holder whose slot lapsed takes one again, and that slot is its own: renewSlot and releaseSlot find it',
    run: async ({ driver, clock }) => {
      const { leases } = driver;
      expect(await leases.acquireSlot('k', 2, 'w1', 1_000)).toBe(true);
      await clock.advance(1_000);
      expect(await leases.acquireSlot('k', 2, 'w1', 1_000)).toBe(true);
      expect(await leases.renewSlot('k', 'w1', 1_000)).toBe(true);
      expect(await leases.acquireSlot('k', 2, 'w2', 1_000)).toBe(true);
      expect(await leases.acquireSlot('k', 2, 'w3', 1_000)).toBe(false);
      expect(await leases.releaseSlot('k', 'w1')).toBe(true);
      expect(await leases.acquireSlot('k', 2, 'w3', 1_000)).toBe(true);
    },
  },
  {
    title:
      'releaseSlot frees the holder’s slot at once and answers false when the holder holds none',
    run: async ({ driver }) => {
      const { leases } = driver;
      expect(await leases.acquireSlot('k', 2, 'w1', 60_000)).toBe(true);
      expect(await leases.acquireSlot('k', 2, 'w2', 60_000)).toBe(true);
      expect(await leases.releaseSlot('k', 'w3')).toBe(false);
      expect(await leases.acquireSlot('k', 2, 'w3', 60_000)).toBe(false);
      expect(await leases.releaseSlot('k', 'w1')).toBe(true);
      expect(await leases.releaseSlot('k', 'w1')).toBe(false);
      expect(await leases.acquireSlot('k', 2, 'w3', 60_000)).toBe(true);
      expect(await leases.acquireSlot('k', 2, 'w1', 60_000)).toBe(false);
    },
  },
  {
    title: 'renewSlot extends the holder’s unexpired slot and answers false when it has none',
    run: async ({ driver, clock }) => {
      const { leases } = driver;
      expect(await leases.renewSlot('k', 'w1', 1_000)).toBe(false);
      expect(await leases.acquireSlot('k', 1, 'w1', 1_000)).toBe(true);
      await clock.advance(900);
      expect(await leases.renewSlot('k', 'w2', 1_000)).toBe(false);
      expect(await leases.renewSlot('k', 'w1', 1_000)).toBe(true);
      await clock.advance(999);
      expect(await leases.acquireSlot('k', 1, 'w2', 1_000)).toBe(false);
      await clock.advance(1);
      expect(await leases.renewSlot('k', 'w1', 1_000)).toBe(false);
      expect(await leases.acquireSlot('k', 1, 'w2', 1_000)).toBe(true);
    },
  },
  {
    title:
      'acquireSlot with a limit below the slots held grants none, but a holder keeps renewing its own',
    run: async ({ driver }) => {
      const { leases } = driver;
      for (const holder of ['w1', 'w2', 'w3']) {
        expect(await leases.acquireSlot('k', 3, holder, 1_000)).toBe(true);
      }
      expect(await leases.acquireSlot('k', 2, 'w4', 1_000)).toBe(false);
      expect(await leases.acquireSlot('k', 2, 'w1', 1_000)).toBe(true);
      expect(await leases.releaseSlot('k', 'w2')).toBe(true);
      expect(await leases.acquireSlot('k', 2, 'w4', 1_000)).toBe(false);
      expect(await leases.releaseSlot('k', 'w3')).toBe(true);
      expect(await leases.acquireSlot('k', 2, 'w4', 1_000)).toBe(true);
    },
  },
  {
    title: 'slot calls with a limit that is not a positive integer or a bad ttl answer JOB_INVALID',
    run: async ({ driver }) => {
      const { leases } = driver;
      for (const limit of [0, -1, 1.5, Number.NaN]) {
        await expectRefusal(leases.acquireSlot('k', limit, 'w1', 1_000), 'JOB_INVALID', {
          field: 'limit',
        });
      }
      for (const ttl of [0, -1, Number.NaN]) {
        await expectRefusal(leases.acquireSlot('k', 1, 'w1', ttl), 'JOB_INVALID', {
          field: 'ttlMs',
        });
        await expectRefusal(leases.renewSlot('k', 'w1', ttl), 'JOB_INVALID', { field: 'ttlMs' });
      }
      await expectRefusal(leases.acquireSlot('', 1, 'w1', 1_000), 'JOB_INVALID', {
        field: 'slot key',
      });
      expect(await leases.acquireSlot('k', 1, 'w2', 1_000)).toBe(true);
    },
  },
];

export const leasesGroup: KitGroup = { name: 'leases', cases: [...leaseCases, ...slotCases] };

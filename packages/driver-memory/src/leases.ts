import type { LeaseHolder } from '@berth/core/driver';
import type { Store } from './store.js';

/** Named leases and counted slots; expired means `expiresAt <= now` on the driver's clock. */

export function acquire(store: Store, name: string, holder: string, ttlMs: number): boolean {
  const now = store.clock.now();
  const lease = store.leases.get(name);
  if (lease !== undefined && lease.holder !== holder && lease.expiresAt > now) return false;
  store.leases.set(name, { holder, expiresAt: now + ttlMs });
  return true;
}

export function renew(store: Store, name: string, holder: string, ttlMs: number): boolean {
  const now = store.clock.now();
  const lease = store.leases.get(name);
  if (lease === undefined || lease.holder !== holder || lease.expiresAt <= now) return false;
  store.leases.set(name, { holder, expiresAt: now + ttlMs });
  return true;
}

/** An expired lease is no longer the holder's to give up. */
export function release(store: Store, name: string, holder: string): boolean {
  const now = store.clock.now();
  const lease = store.leases.get(name);
  if (lease === undefined || lease.holder !== holder || lease.expiresAt <= now) return false;
  store.leases.delete(name);
  return true;
}

export function readHolder(store: Store, name: string): LeaseHolder | undefined {
  const lease = store.leases.get(name);
  if (lease === undefined || lease.expiresAt <= store.clock.now()) return undefined;
  return { holder: lease.holder, expiresAt: lease.expiresAt };
}

/**
 * The earliest expiry among a slot key's holders (a lower bound: a renewal only raises one), so a
 * call sweeps the key only once some holder may have expired, not on every call.
 */
const earliest = new WeakMap<Map<string, number>, number>();

/** The unexpired slots of `key`, with expired ones dropped. */
function liveSlots(store: Store, key: string, now: number): Map<string, number> {
  const slots = store.slots.get(key) ?? new Map<string, number>();
  if ((earliest.get(slots) ?? Number.NEGATIVE_INFINITY) <= now) {
    let next = Number.POSITIVE_INFINITY;
    for (const [holder, expiresAt] of slots) {
      if (expiresAt <= now) slots.delete(holder);
      else next = Math.min(next, expiresAt);
    }
    earliest.set(slots, next);
  }
  if (slots.size === 0) store.slots.delete(key);
  return slots;
}

/** Gives `holder` a slot of `slots` until `expiresAt`. */
function hold(slots: Map<string, number>, holder: string, expiresAt: number): void {
  slots.set(holder, expiresAt);
  earliest.set(slots, Math.min(earliest.get(slots) ?? expiresAt, expiresAt));
}

export function acquireSlot(
  store: Store,
  key: string,
  limit: number,
  holder: string,
  ttlMs: number,
): boolean {
  const now = store.clock.now();
  const slots = liveSlots(store, key, now);
  if (!slots.has(holder) && slots.size >= limit) return false;
  hold(slots, holder, now + ttlMs);
  store.slots.set(key, slots);
  return true;
}

export function renewSlot(store: Store, key: string, holder: string, ttlMs: number): boolean {
  const now = store.clock.now();
  const slots = liveSlots(store, key, now);
  if (!slots.has(holder)) return false;
  hold(slots, holder, now + ttlMs);
  return true;
}

export function releaseSlot(store: Store, key: string, holder: string): boolean {
  const slots = liveSlots(store, key, store.clock.now());
  const released = slots.delete(holder);
  if (slots.size === 0) store.slots.delete(key);
  return released;
}

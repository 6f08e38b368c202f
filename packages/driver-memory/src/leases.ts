import type { LeaseHolder } from '@berth/core';
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

/** The unexpired slots of `key`, with expired ones dropped. */
function liveSlots(store: Store, key: string, now: number): Map<string, number> {
  const slots = store.slots.get(key) ?? new Map<string, number>();
  for (const [holder, expiresAt] of slots) if (expiresAt <= now) slots.delete(holder);
  if (slots.size === 0) store.slots.delete(key);
  return slots;
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
  slots.set(holder, now + ttlMs);
  store.slots.set(key, slots);
  return true;
}

export function renewSlot(store: Store, key: string, holder: string, ttlMs: number): boolean {
  const now = store.clock.now();
  const slots = liveSlots(store, key, now);
  if (!slots.has(holder)) return false;
  slots.set(holder, now + ttlMs);
  return true;
}

export function releaseSlot(store: Store, key: string, holder: string): boolean {
  const slots = liveSlots(store, key, store.clock.now());
  const released = slots.delete(holder);
  if (slots.size === 0) store.slots.delete(key);
  return released;
}

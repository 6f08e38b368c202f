import type { LeaseStore } from '@berth/core/driver';
import type { NatsContext } from './context.js';
import { decodeJson, encodeJson } from './record.js';
import { createSlotStore } from './slots.js';
import { purgeKey, writeKey } from './writes.js';

/** Times a lease call re-reads and decides again when another holder's write got there first. */
const TRIES = 16;

interface LeaseDoc {
  readonly name: string;
  readonly holder: string;
  readonly expiresAt: number;
}

/** What a decision writes: a new doc, the key removed, or nothing (with the answer). */
type Decision<T> =
  | { readonly write: T | null; readonly answer: boolean }
  | { readonly answer: boolean };

/**
 * Leases: each name is ONE key of the aux bucket (slots: see `slots.ts`), and every change to it
 * is one write conditioned on the revision read, so two holders racing for it see one winner.
 * Expiry is `expiresAt <= now` on the driver's clock, checked by whoever reads the key next: a
 * holder that stopped renewing holds nothing once its time is up, and nothing needs to run.
 */
export function createLeaseStore(context: NatsContext): LeaseStore {
  const { aux, jsm, subjects } = context;

  async function change<T extends { readonly name: string }>(
    key: string,
    decide: (current: T | undefined, now: number) => Decision<T>,
  ): Promise<boolean> {
    for (let attempt = 0; attempt < TRIES; attempt += 1) {
      const entry = await aux.get(key);
      const current =
        entry !== null && entry.operation === 'PUT' ? decodeJson<T>(entry.value) : undefined;
      const revision = entry?.revision ?? 0;
      const decision = decide(current, context.clock.now());
      if (!('write' in decision)) return decision.answer;
      if (decision.write === null) {
        // Removed outright, and only if nobody wrote since the read (unwatched: no marker needed).
        if (await purgeKey(jsm, subjects.auxStream, subjects.auxSubject(key), revision)) {
          return decision.answer;
        }
        continue;
      }
      if ((await writeKey(aux, key, encodeJson(decision.write), revision)) !== undefined) {
        return decision.answer;
      }
    }
    throw new Error(`lease key ${key} kept changing under ${TRIES} writes`);
  }

  return {
    async holder(name) {
      const entry = await aux.get(subjects.lease(name));
      if (entry === null || entry.operation !== 'PUT') return undefined;
      const current = decodeJson<LeaseDoc>(entry.value);
      const live = current.name === name && current.expiresAt > context.clock.now();
      return live ? { holder: current.holder, expiresAt: current.expiresAt } : undefined;
    },
    acquire: (name, holder, ttlMs) =>
      change<LeaseDoc>(subjects.lease(name), (current, now) => {
        const live = current !== undefined && current.name === name && current.expiresAt > now;
        if (live && current.holder !== holder) return { answer: false };
        return { write: { name, holder, expiresAt: now + ttlMs }, answer: true };
      }),
    renew: (name, holder, ttlMs) =>
      change<LeaseDoc>(subjects.lease(name), (current, now) => {
        const own = current?.name === name && current.holder === holder && current.expiresAt > now;
        return own
          ? { write: { name, holder, expiresAt: now + ttlMs }, answer: true }
          : { answer: false };
      }),
    release: (name, holder) =>
      change<LeaseDoc>(subjects.lease(name), (current, now) => {
        const own = current?.name === name && current.holder === holder && current.expiresAt > now;
        return own ? { write: null, answer: true } : { answer: false };
      }),
    ...createSlotStore(context),
  };
}

import { type Driver, MAX_NAME_LENGTH, type StepRecord } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase, KitGroup } from '../../kit.js';
import { claimJob, fenceOf } from '../fixtures/index.js';

/**
 * Large values: a limit or a run as large as memory allows works on every driver. A driver that
 * keeps a slot key's holders or a run's steps in one stored value fails here once that value
 * outgrows what its backend takes in one write (a NATS message, a row, a key).
 */

/**
 * Holders of the one slot key, and its limit. Each holder name is as long as a name may be, so
 * the names alone come to 1.2 MB, past the 1 MiB a NATS server takes in one message by default:
 * the size is what breaks a one-value design, and a holder is a round trip (on pg a commit on
 * the key's row, ~1.6 ms), so bytes come from long names rather than from more holders.
 */
const HOLDERS = 6_000;
/** Steps of the one run, and the length of each step's name. */
const STEPS = 5_000;
const NAME_LENGTH = 200;
/** Calls in flight at once: enough to keep a round trip busy, few enough for a shared server. */
const CHUNK = 100;

/** Runs `call` for 0..count-1, at most CHUNK at a time; answers every result in order. */
async function chunked<T>(count: number, call: (index: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += CHUNK) {
    const end = Math.min(count, start + CHUNK);
    out.push(
      ...(await Promise.all(Array.from({ length: end - start }, (_, i) => call(start + i)))),
    );
  }
  return out;
}

/** A holder name of MAX_NAME_LENGTH characters, distinct per index (its number first). */
const holderOf = (index: number): string => `holder-${index}-`.padEnd(MAX_NAME_LENGTH, 'h');

/** A 200-character step name, distinct per index (its number first, padded out). */
const stepName = (index: number): string =>
  `step-${String(index).padStart(5, '0')}-`.padEnd(NAME_LENGTH, 'x');

const stepAt = (runId: string, index: number, at: number): StepRecord => ({
  runId,
  name: stepName(index),
  status: 'completed',
  output: { index },
  attempts: 1,
  startedAt: at,
  updatedAt: at,
});

/** A job of its own queue, claimed: the fence its steps are written under. */
async function claimedRun(driver: Driver, queue: string) {
  const { id, runId } = await driver.enqueue({ name: 'kit.large', queue });
  return { id, runId, fence: fenceOf(await claimJob(driver, id, queue)) };
}

const largeCases: readonly KitCase[] = [
  {
    title: `a slot key grants ${HOLDERS} holders at limit ${HOLDERS}, refuses one more, and a release frees exactly one`,
    timeoutMs: 300_000,
    costMs: 10_000,
    run: async ({ driver }) => {
      const { leases } = driver;
      const granted = await chunked(HOLDERS, (index) =>
        leases.acquireSlot('large', HOLDERS, holderOf(index), 600_000),
      );
      expect(granted.filter((answer) => !answer)).toEqual([]);
      expect(await leases.acquireSlot('large', HOLDERS, 'one-more', 600_000)).toBe(false);
      // Holders anywhere in the key keep renewing and re-acquiring their own slot at the limit.
      for (const index of [0, HOLDERS / 2, HOLDERS - 1]) {
        expect(await leases.renewSlot('large', holderOf(index), 600_000)).toBe(true);
        expect(await leases.acquireSlot('large', HOLDERS, holderOf(index), 600_000)).toBe(true);
      }
      expect(await leases.releaseSlot('large', holderOf(HOLDERS / 2))).toBe(true);
      expect(await leases.releaseSlot('large', holderOf(HOLDERS / 2))).toBe(false);
      expect(await leases.renewSlot('large', holderOf(HOLDERS / 2), 600_000)).toBe(false);
      expect(await leases.acquireSlot('large', HOLDERS, 'one-more', 600_000)).toBe(true);
      expect(await leases.acquireSlot('large', HOLDERS, 'two-more', 600_000)).toBe(false);
    },
  },
  {
    title: `a run holds ${STEPS} steps of ${NAME_LENGTH}-character names: listed in write order, read back, and a requeue fromStep in the middle drops that step and every later one`,
    timeoutMs: 300_000,
    costMs: 6_000,
    run: async ({ driver, t0 }) => {
      const { id, runId, fence } = await claimedRun(driver, 'large');
      // Puts in flight together have no order among them; each chunk lands after the one before.
      await chunked(STEPS, (index) => driver.steps.put(stepAt(runId, index, t0), fence));
      const all = Array.from({ length: STEPS }, (_, index) => stepAt(runId, index, t0));
      const listed = await driver.steps.list(runId);
      expect([...listed].sort((a, b) => a.name.localeCompare(b.name))).toEqual(all);
      for (let start = 0; start < STEPS; start += CHUNK) {
        const names = (steps: readonly StepRecord[]) =>
          new Set(steps.slice(start, start + CHUNK).map((step) => step.name));
        expect(names(listed)).toEqual(names(all));
      }
      const sample = [0, 1, STEPS / 2, STEPS - 1];
      const read = await chunked(sample.length, (at) =>
        driver.steps.get(runId, stepName(sample[at] ?? 0)),
      );
      expect(read).toEqual(sample.map((index) => stepAt(runId, index, t0)));
      expect(await driver.nack(fence, { error: { message: 'stopped' }, final: true })).toBe(true);
      const middle = listed[STEPS / 2] as StepRecord;
      const last = listed[STEPS - 1] as StepRecord;
      const requeued = await driver.requeue(id, { fromStep: middle.name });
      expect(requeued.state).toBe('ready');
      expect(await driver.steps.list(runId)).toEqual(listed.slice(0, STEPS / 2));
      expect(await driver.steps.get(runId, middle.name)).toBeUndefined();
      expect(await driver.steps.get(runId, last.name)).toBeUndefined();
      // The next attempt writes after the kept steps.
      const next = fenceOf(await claimJob(driver, id, 'large'));
      await driver.steps.put(last, next);
      expect(await driver.steps.list(runId)).toEqual([...listed.slice(0, STEPS / 2), last]);
    },
  },
];

/** Values as large as memory allows: 20,000 holders of one slot key, 5,000 steps of one run. */
export const largeValuesGroup: KitGroup = { name: 'large-values', cases: largeCases };

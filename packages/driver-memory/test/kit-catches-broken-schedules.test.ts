import { runKit } from '@berth/conformance';
import type { ScheduleStore } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { broken, memory } from './broken.js';

type Store = (real: ScheduleStore) => Partial<ScheduleStore>;
const brokenStore = (override: Store) =>
  broken((real) => ({ schedules: { ...real.schedules, ...override(real.schedules) } }));

/** A put that writes over whatever revision is stored: a stale writer wins. */
const putUnconditioned = brokenStore((real) => ({
  put: async (schedule, _revision) => {
    const stored = await real.get(schedule.name, {
      ...(schedule.tenantId === undefined ? {} : { tenantId: schedule.tenantId }),
    });
    return real.put(schedule, stored?.revision ?? 0);
  },
}));

/** A due that hands out schedules not yet due. */
const dueEarly = brokenStore((real) => ({
  due: (upTo, limit) => real.due(upTo + 60_000, limit),
}));

/** A list in reverse name order. */
const listReversed = brokenStore((real) => ({
  list: async (options) => {
    const page = await real.list(options);
    return { ...page, schedules: [...page.schedules].reverse() };
  },
}));

const SEED = 2026;
const failedGroups = async (factory: Parameters<typeof runKit>[0]) => {
  const report = await runKit(factory, {
    reference: memory,
    only: ['schedules', 'golden', 'differential'],
    differentialSeed: SEED,
  });
  return [...new Set(report.failures.map((failure) => failure.group))].sort();
};

describe('the conformance kit: stored schedules', () => {
  it('passes the unbroken memory driver', async () => {
    expect(await failedGroups(memory)).toEqual([]);
  }, 300_000);

  it('fails a driver whose put lands over a revision it was not given', async () => {
    expect(await failedGroups(putUnconditioned)).toEqual(['differential', 'golden', 'schedules']);
  }, 300_000);

  it('fails a driver whose due answers schedules before their nextAt', async () => {
    expect(await failedGroups(dueEarly)).toEqual(['differential', 'golden', 'schedules']);
  }, 300_000);

  it('fails a driver that lists schedules in reverse order', async () => {
    expect(await failedGroups(listReversed)).toEqual(['differential', 'golden', 'schedules']);
  }, 300_000);
});

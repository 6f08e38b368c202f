import { createClient, createManualClock, type Driver, type ManualClock } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterEach, beforeEach, expect } from 'vitest';
import type { DashboardOptions, SchedulesResponse, StoredScheduleView } from '../../src/index.js';
import { getApi, startDashboard, type TestDashboard } from './server.js';

/** What the stored-schedule route tests share: a memory driver on a manual clock per test. */

export interface Refusal {
  readonly error: { readonly code: string; readonly message: string; readonly fix?: string };
}

export const T0 = Date.UTC(2026, 5, 1, 12, 30, 0);
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const AT_13 = Date.UTC(2026, 5, 1, 13, 0, 0);

/** The test's clock and driver (live bindings: each test gets fresh ones). */
export let clock: ManualClock;
export let driver: Driver;
/** Dashboards a test started; closed after it. */
export const opened: TestDashboard[] = [];

export async function start(options: Omit<DashboardOptions, 'driver'> = {}) {
  const served = await startDashboard({ driver, ...options });
  opened.push(served);
  return served;
}

export const upsert = (
  input: Parameters<ReturnType<typeof createClient>['schedules']['upsert']>[0],
) => createClient({ driver }).schedules.upsert(input);

export const stored = async (base: string, query = '', headers: Record<string, string> = {}) => {
  const answer = await getApi<SchedulesResponse>(base, `/schedules${query}`, headers);
  expect(answer.status).toBe(200);
  return answer.body.stored;
};

export const labels = (schedules: readonly StoredScheduleView[]) =>
  schedules.map((schedule) => `${schedule.tenantId ?? '-'}/${schedule.name}`);

/** Registers the per-test driver and the clean-up, in the calling test file. */
export function storedScheduleHooks(): void {
  beforeEach(() => {
    clock = createManualClock(T0);
    driver = createMemoryDriver({ clock });
  });
  afterEach(async () => {
    for (const served of opened.splice(0)) await served.close();
    await driver.close();
  });
}

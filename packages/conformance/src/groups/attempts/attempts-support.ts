import type { AttemptHistory, AttemptRecord, Driver } from '@berth/core';
import { expect } from 'vitest';

/** The job's history, failing the case when the driver answers none. */
export async function historyOf(
  driver: Driver,
  id: string,
  tenantId?: string,
): Promise<AttemptHistory> {
  const history = await driver.attempts.list(id, tenantId === undefined ? {} : { tenantId });
  if (history === undefined) throw new Error(`expected an attempt history for job ${id}`);
  return history;
}

/** The job's records, asserting none was dropped. */
export async function recordsOf(driver: Driver, id: string): Promise<readonly AttemptRecord[]> {
  const history = await historyOf(driver, id);
  expect(history.dropped).toBe(0);
  return history.records;
}

/** The outcomes of the job's records, oldest first. */
export async function outcomesOf(driver: Driver, id: string): Promise<string[]> {
  return (await historyOf(driver, id)).records.map((record) => record.outcome);
}

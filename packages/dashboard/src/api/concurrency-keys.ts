import { type ConcurrencyInUse, concurrencyInUse, type Driver } from '@berth/core';

/** Concurrency keys the overview answers, the busiest first. */
export const CONCURRENCY_TOP = 20;

/** Running jobs the overview reads at most for its concurrency keys (both scopes). */
export const CONCURRENCY_SCAN = 5_000;

/**
 * Per-key concurrency in use for the overview. A tenant-scoped dashboard counts only the
 * tenant's own running jobs: other tenants' job names and keys would leak.
 */
export function concurrencyKeys(
  driver: Driver,
  tenantId: string | undefined,
): Promise<ConcurrencyInUse> {
  return concurrencyInUse(driver, {
    top: CONCURRENCY_TOP,
    maxRunning: CONCURRENCY_SCAN,
    ...(tenantId === undefined ? {} : { tenantId }),
  });
}

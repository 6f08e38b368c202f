import type { Driver } from '@berth/core';

/** The differential ops of the pause area: a tenant, when drawn, must be refused alike. */
export type PauseOp =
  | { readonly kind: 'pause'; readonly queue: string; readonly tenant?: string | undefined }
  | { readonly kind: 'resume'; readonly queue: string; readonly tenant?: string | undefined }
  | { readonly kind: 'pausedList' };

/** Calls the driver as a pause op says; refusals are thrown. */
export function applyPause(driver: Driver, op: PauseOp): Promise<unknown> {
  if (op.kind === 'pausedList') return driver.pauses.list();
  const options = op.tenant === undefined ? {} : { tenantId: op.tenant };
  return op.kind === 'pause'
    ? driver.pauses.pause(op.queue, options)
    : driver.pauses.resume(op.queue, options);
}

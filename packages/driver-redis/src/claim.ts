import type { ClaimedJob, ClaimOutcome, ScreenedClaim } from '@berth/core';
import type { RedisContext } from './context.js';
import { asArray, jobOf } from './decode.js';
import { CLAIM_LUA } from './lua/claim.js';
import { defineScript } from './scripts.js';

const CLAIM = defineScript('claim', CLAIM_LUA);

/** What a lease burial leaves in `lastError`: the same words on every driver. */
export const LEASE_LAPSED_ERROR = JSON.stringify({
  code: 'LEASE_LAPSED',
  message: 'the lease lapsed on the final attempt and no attempts remain',
});

export async function claim(context: RedisContext, request: ScreenedClaim): Promise<ClaimOutcome> {
  const now = context.clock.now();
  const reply = await context.run(CLAIM, now, [
    request.limit,
    request.workerId,
    request.visibilityTimeoutMs,
    LEASE_LAPSED_ERROR,
    request.queues.length,
    ...request.queues,
    request.dropExhausted.length,
    ...request.dropExhausted,
    request.names?.length ?? 0,
    ...(request.names ?? []),
  ]);
  const [claimedRows, buriedRows] = asArray(reply, 'claim');
  const claimed = asArray(claimedRows, 'claim').map((row): ClaimedJob => {
    const [fields, resumed] = asArray(row, 'claim');
    return { ...(jobOf(fields, now) as ClaimedJob), resumed: resumed === 1 };
  });
  const buried = asArray(buriedRows, 'claim').map((row) => jobOf(row, now));
  return { claimed, buried };
}

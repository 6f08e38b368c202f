import { randomUUID } from 'node:crypto';
import type { ClaimOutcome, ScreenedClaim } from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { asArray, claimedOf, jobOf } from './decode.js';
import { CLAIM_LUA, UNCLAIM_LUA } from './lua/generated.js';
import { defineScript, type ScriptArg } from './scripts.js';

export const CLAIM = defineScript('claim', CLAIM_LUA);
const UNCLAIM = defineScript('unclaim', UNCLAIM_LUA);

/** What a lease burial leaves in `lastError`: the same words on every driver. */
export const LEASE_LAPSED_ERROR = JSON.stringify({
  code: 'LEASE_LAPSED',
  message: 'the lease lapsed on the final attempt and no attempts remain',
});

/** Lost claims a driver keeps to give back later, at most: the oldest are dropped past it. */
const MAX_LOST_CLAIMS = 100;

/** A claim whose answer was lost, to give back: its token and worker. */
interface LostClaim {
  readonly token: string;
  readonly workerId: string;
}

const lostClaims = new WeakMap<RedisContext, LostClaim[]>();

/** The claim script's ARGV after `now`; the lifecycle retention last. */
export const claimArgs = (
  request: ScreenedClaim,
  token: string,
  lifecycleRetention: number,
): ScriptArg[] => [
  request.limit,
  request.workerId,
  request.visibilityTimeoutMs,
  LEASE_LAPSED_ERROR,
  token,
  request.queues.length,
  ...request.queues,
  request.dropExhausted.length,
  ...request.dropExhausted,
  request.names?.length ?? 0,
  ...(request.names ?? []),
  lifecycleRetention,
];

/** Gives back every lost claim still remembered; one that fails again stays for the next try. */
async function giveBack(context: RedisContext, lost: LostClaim[]): Promise<void> {
  for (const claim of lost.splice(0, lost.length)) {
    try {
      // By source, not sha: a give-back queued behind a claim the server never loaded must
      // not meet NOSCRIPT after its own caller stopped waiting.
      await context.redis.eval(
        UNCLAIM.lua,
        1,
        context.keys.base,
        String(context.clock.now()),
        claim.token,
        claim.workerId,
      );
    } catch {
      lost.push(claim);
    }
  }
}

/**
 * One claim script. If its answer is lost (a timeout, a dropped connection after the script may
 * have run, or a reply that does not decode), the rows it claimed go back with their attempts
 * restored (UNCLAIM, sent on the same connection, so it runs after the claim); if that fails
 * too, the next claim retries it.
 */
export async function claim(context: RedisContext, request: ScreenedClaim): Promise<ClaimOutcome> {
  let lost = lostClaims.get(context);
  if (lost === undefined) {
    lost = [];
    lostClaims.set(context, lost);
  }
  if (lost.length > 0) await giveBack(context, lost);
  const now = context.clock.now();
  const token = randomUUID();
  try {
    return decode(
      await context.run(CLAIM, now, claimArgs(request, token, context.lifecycleRetention)),
      request,
      now,
    );
  } catch (error) {
    // The script may have run: whatever it claimed under this token goes back.
    lost.push({ token, workerId: request.workerId });
    if (lost.length > MAX_LOST_CLAIMS) lost.shift();
    await giveBack(context, lost);
    throw error;
  }
}

function decode(reply: unknown, request: ScreenedClaim, now: number): ClaimOutcome {
  const [claimedRows, buriedRows] = asArray(reply, 'claim');
  const visibleAt = now + request.visibilityTimeoutMs;
  const claimed = asArray(claimedRows, 'claim').map((row) =>
    claimedOf(row, request.workerId, visibleAt, now),
  );
  const buried = asArray(buriedRows, 'claim').map((row) => jobOf(row, now));
  return { claimed, buried };
}

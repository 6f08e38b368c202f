/**
 * What the claim script (src/lua/scripts/claim.lua) shares with TypeScript: the generator fills
 * these into it (scripts/lua/fills.ts), and decode.ts reads its answer by them.
 *
 * A claimed row's answer, ONE string of NUL-separated parts (no part holds a NUL: core refuses
 * it in names and keys, JSON escapes it, the rest are numbers and uuids): these fields, in this
 * order, then 1 when it resumed a suspended run (else 0), then name and value of each
 * CLAIM_REPLY_OPTIONAL field the row holds. One string per row costs the server far less to
 * answer than a part per field. The rest the caller knows: state running, claimedBy its worker,
 * visibleAt now + its visibility timeout, updatedAt now.
 */
export const CLAIM_REPLY_FIELDS = [
  'id',
  'runId',
  'name',
  'queue',
  'payload',
  'priority',
  'attempts',
  'maxAttempts',
  'runAt',
  'createdAt',
  'claim',
] as const;

export const CLAIM_REPLY_OPTIONAL = [
  'lastError',
  'result',
  'progress',
  'idempotencyKey',
  'concurrencyKey',
  'tenantId',
  'traceparent',
  'enqueuedBy',
  'parentId',
] as const;

/** Lapsed leases a claim moves per lane (queue and name) beyond its limit (src/lua/scripts/claim.lua). */
export const PROMOTE_SLACK = 16;

/**
 * Fields of one request in the enqueue script's ARGV, in this order ('' means absent): enqueue.ts
 * sends them, and the generator fills their count and offsets into src/lua/scripts/enqueue.lua.
 */
export const ENQUEUE_FIELDS = [
  'callerId',
  'newId',
  'runId',
  'name',
  'queue',
  'payload',
  'runAt',
  'priority',
  'maxAttempts',
  'idempotencyKey',
  'onConflict',
  'concurrencyKey',
  'tenantId',
  'traceparent',
  'enqueuedBy',
  'parentId',
] as const;

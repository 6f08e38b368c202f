import { createHash } from 'node:crypto';
import { configInvalid } from '@berth/core/driver';

/**
 * Every stream, bucket, key and subject the driver uses, in one place. A prefix is one queue: two
 * drivers on different prefixes share nothing.
 *
 * - The JOBS bucket (`<prefix>_jobs`, stream `KV_<prefix>_jobs`) holds what every process mirrors
 *   through its watch: job records (`j.<id>`), batch decisions (`b.<batch>`) and events
 *   (`e.<id>`), queue pauses (`p.<hash>`) and stored schedules (`c.<hash>`). Its stream sequence
 *   is the one clock of insertion order.
 * - The AUX bucket (`<prefix>_aux`) holds what is read by key and never watched: live idempotency
 *   holders (`k.<hash>`), leases (`l.<hash>`), fleet slot shards, holder pointers and full markers
 *   (`s.<hash>.<shard>`, `s.<hash>.h.<hash>`, `s.<hash>.f`), marks (`m.<hash>`), step log entries
 *   (`t.<runId>.<gen>`), job log chunks (`g.<jobId>.<gen>`), the backfill ledger (one entry per
 *   name and tenant, `f.<hash>.<hash>`, and a pointer per run, `r.<runId>`) and the parts of
 *   content too large for its record (`x.<owner>.<field>.<generation>.<part>`).
 * - Wake-ups go over the core NATS subject `berth.<prefix>.wake`, settle notices (the ids of the
 *   jobs a change settled) over `berth.<prefix>.settled`.
 * - The LIFECYCLE stream (`berth_<prefix>_lifecycle`) holds the lifecycle events, one subject per
 *   job (`berth.<prefix>.lifecycle.<jobId>`, so its last event is one get away); the aux key
 *   `v.lifecycle` holds the repair pass's lease and how far it has verified (lifecycle-repair.ts).
 *
 * App-chosen names (keys, lease names, step names) are hashed into key tokens: KV keys allow few
 * characters, and the full name is kept in the value and checked on every read.
 */

/** The longest prefix: bucket names end up inside stream names and subjects. */
const MAX_PREFIX = 64;

export interface Subjects {
  readonly prefix: string;
  readonly jobsBucket: string;
  readonly auxBucket: string;
  /** The stream behind the jobs bucket (its `last_seq` is what a full sync waits for). */
  readonly jobsStream: string;
  readonly auxStream: string;
  readonly wake: string;
  /** The core subject of settle notices (`watchSettles`). */
  readonly settled: string;
  /** The stream of lifecycle events. */
  readonly lifecycleStream: string;
  /** The subjects the lifecycle stream takes (every job's). */
  readonly lifecycleSubjects: string;
  /** The aux key of the lifecycle repair pass: its lease and the revision it verified up to. */
  readonly lifecycleRepair: string;
  /** The subject of one job's lifecycle events. */
  lifecycle(jobId: string): string;
  /** Job record key. */
  job(id: string): string;
  /** Batch decision key. */
  batch(id: string): string;
  /** Event key. */
  event(id: string): string;
  /** A queue's pause (in the jobs bucket, so every process's mirror follows it). */
  pause(queue: string): string;
  /** A stored schedule of `(tenantId, name)` (in the jobs bucket: `due` reads the mirror). */
  schedule(name: string, tenantId: string | undefined): string;
  /** The owner a schedule's spilled payload parts are written under (never a job id). */
  scheduleOwner(name: string, tenantId: string | undefined): string;
  /** Live idempotency holder of `(name, tenantId, key)`. */
  holder(name: string, tenantId: string | undefined, key: string): string;
  lease(name: string): string;
  /** A named monotonic mark. */
  mark(name: string): string;
  /** Shard `shard` of a slot key's holders. */
  slotShard(key: string, shard: number): string;
  /** A slot key's marker: full until an instant, at a limit. */
  slotFull(key: string): string;
  /** Which shard of a slot key `holder` is in. */
  slotHolder(key: string, holder: string): string;
  /** One entry of a run's step log. */
  stepEntry(runId: string, gen: string): string;
  /** The subject filter of every step log entry of a run (for purging them all at once). */
  stepsOfRun(runId: string): string;
  /** One chunk of a job's log lines (`logs.ts`). */
  logChunk(jobId: string, gen: string): string;
  /** The subject filter of every log chunk of a job. */
  logsOfJob(jobId: string): string;
  /** The backfill ledger entry holding every run of `(name, tenantId)` (backfills.ts). */
  backfillRuns(name: string, tenantId: string | undefined): string;
  /** The key filter of the ledger entries of one name, one tenant, both or neither (any). */
  backfillEntries(filter: {
    readonly name: string | undefined;
    readonly tenantId: string | undefined;
  }): string;
  /** Which ledger entry holds run `runId`. */
  backfillPointer(runId: string): string;
  /** The owner a run's spilled cursor and error parts are written under (never a job id). */
  backfillOwner(runId: string): string;
  /** One part of a spilled content field (a payload or result too large to sit in its record). */
  blob(owner: string, field: string, generation: string, part: number): string;
  /** The subject filter of every spilled part an owner (a job or an event) holds. */
  blobsOf(owner: string): string;
  /** The stream subject of an aux bucket key (for removing it without a marker). */
  auxSubject(key: string): string;
  /** The stream subject of a jobs bucket key (for removing a delete marker past its grace). */
  jobsSubject(key: string): string;
}

/** A fixed-length key token for an app-chosen text (base64url of its SHA-256). */
export const token = (...parts: readonly string[]): string =>
  createHash('sha256').update(JSON.stringify(parts)).digest('base64url');

/** The kind of key a jobs-bucket entry is, from its first token. */
export type JobsKeyKind = 'job' | 'batch' | 'event' | 'pause' | 'schedule';

export function jobsKeyKind(key: string): { kind: JobsKeyKind; id: string } | undefined {
  const kind = key.charCodeAt(0);
  const id = key.slice(2);
  if (key.charCodeAt(1) !== 46) return undefined;
  if (kind === 106) return { kind: 'job', id };
  if (kind === 98) return { kind: 'batch', id };
  if (kind === 101) return { kind: 'event', id };
  if (kind === 112) return { kind: 'pause', id };
  if (kind === 99) return { kind: 'schedule', id };
  return undefined;
}

/** The key token of a tenant, or of no tenant (which no tenant's name can produce). */
const tenantToken = (tenantId: string | undefined): string =>
  token(tenantId ?? '', tenantId === undefined ? 'n' : 't');

export function subjectsFor(prefix: string): Subjects {
  if (!/^[A-Za-z0-9_-]+$/.test(prefix) || prefix.length > MAX_PREFIX) {
    throw configInvalid({
      option: 'prefix',
      reason: `is ${JSON.stringify(prefix)}; it names NATS streams and subjects`,
      allowed: `must be 1 to ${MAX_PREFIX} letters, digits, "-" or "_"`,
      example: "createNatsDriver({ servers, prefix: 'billing' })",
    });
  }
  const jobsBucket = `${prefix}_jobs`;
  const auxBucket = `${prefix}_aux`;
  return {
    prefix,
    jobsBucket,
    auxBucket,
    jobsStream: `KV_${jobsBucket}`,
    auxStream: `KV_${auxBucket}`,
    wake: `berth.${prefix}.wake`,
    settled: `berth.${prefix}.settled`,
    lifecycleStream: `berth_${prefix}_lifecycle`,
    lifecycleSubjects: `berth.${prefix}.lifecycle.>`,
    lifecycleRepair: 'v.lifecycle',
    lifecycle: (jobId) => `berth.${prefix}.lifecycle.${jobId}`,
    job: (id) => `j.${id}`,
    batch: (id) => `b.${id}`,
    event: (id) => `e.${id}`,
    pause: (queue) => `p.${token(queue)}`,
    schedule: (name, tenantId) => `c.${token(name)}.${tenantToken(tenantId)}`,
    scheduleOwner: (name, tenantId) => `c-${token(name)}-${tenantToken(tenantId)}`,
    holder: (name, tenantId, key) =>
      `k.${token(name, tenantId ?? '', tenantId === undefined ? 'n' : 't', key)}`,
    lease: (name) => `l.${token(name)}`,
    mark: (name) => `m.${token(name)}`,
    slotShard: (key, shard) => `s.${token(key)}.${shard}`,
    slotFull: (key) => `s.${token(key)}.f`,
    slotHolder: (key, holder) => `s.${token(key)}.h.${token(holder)}`,
    stepEntry: (runId, gen) => `t.${runId}.${gen}`,
    stepsOfRun: (runId) => `$KV.${auxBucket}.t.${runId}.>`,
    logChunk: (jobId, gen) => `g.${jobId}.${gen}`,
    logsOfJob: (jobId) => `$KV.${auxBucket}.g.${jobId}.>`,
    backfillRuns: (name, tenantId) => `f.${token(name)}.${tenantToken(tenantId)}`,
    backfillEntries: ({ name, tenantId }) =>
      `f.${name === undefined ? '*' : token(name)}.${tenantId === undefined ? '*' : tenantToken(tenantId)}`,
    backfillPointer: (runId) => `r.${runId}`,
    backfillOwner: (runId) => `f-${runId}`,
    blob: (owner, field, generation, part) => `x.${owner}.${field}.${generation}.${part}`,
    blobsOf: (owner) => `$KV.${auxBucket}.x.${owner}.>`,
    auxSubject: (key) => `$KV.${auxBucket}.${key}`,
    jobsSubject: (key) => `$KV.${jobsBucket}.${key}`,
  };
}

import { configInvalid } from '@berth/core/driver';

/**
 * Every key the driver writes, in one place. Each shape is a literal text with `$` where a value
 * goes; variable parts come last or after a fixed token, so two shapes never make one name. All
 * keys start with `{prefix}:`: the hash tag puts them in one Redis Cluster slot, which is what
 * lets one script touch them all.
 */
const SHAPES = {
  /** Hash: one job's fields (payload, result, lastError as JSON). */
  job: 'job:$',
  /** Counter: the job insertion sequence. */
  seq: 'seq',
  /** Hash: `name \0 tenant \0 key` → id of the LIVE holder. */
  idem: 'idem',
  /** Set: every queue holding a row. */
  queues: 'queues',
  /** Zset per waiting state (delayed, suspended) and queue, by runAt: what stats reads due counts from. */
  state: 'state:$:$',
  /** Hash per queue: ready, running and settled state → how many rows hold it (no order needed). */
  counts: 'counts:$',
  /** Set per queue: the job names it holds rows of, one claim lane each (never shrinks while it has rows). */
  names: 'names:$',
  /**
   * The claim lanes, one set of each per (queue, name): a claim reads the lanes of its names
   * (of every name of the queue without names). The part is `qn(queue, name)`: the queue's
   * length first, so no two pairs make one name (`laneOf` below). Lex zset: claimable rows by
   * (priority desc, runAt, seq). Lex zset: delayed/suspended rows not yet found due, in the same
   * order (a claim walks it one priority at a time). Zset: running rows whose lease has not been
   * seen lapsing, by visibleAt. Lex zset: lapsed rows on their final attempt, waiting to be
   * buried.
   */
  dueName: 'due-name:$',
  waitingName: 'waiting-name:$',
  leasesName: 'leases-name:$',
  spentName: 'spent-name:$',
  /** Zset per terminal state: rows by finishedAt, member (seq, id): purge takes the oldest. */
  finished: 'finished:$',
  /**
   * Hash per worker: id → the claim note (token:prior state:attempt counted) of each row it
   * holds running, so a claim whose answer was lost can be given back by its token.
   */
  claims: 'claims:$',
  /** Set per event name: suspended rows waiting for it. */
  waiters: 'waiters:$',
  /**
   * Lex zsets by (createdAt, seq): rows per queue, name, tenant, stored state (every row is in
   * one stored-state index: a page over every row walks their merge).
   */
  listQueue: 'list:queue:$',
  listName: 'list:name:$',
  listTenant: 'list:tenant:$',
  listState: 'list:state:$',
  /** Hash per run: step name → step JSON. */
  steps: 'steps:$',
  /** List per job: its attempt history, record JSON oldest first (`lua/include/attempts.lua`). */
  attempts: 'attempts:$',
  /** Zset per run: step name by first-write order. */
  stepOrder: 'step-order:$',
  stepSeq: 'step-seq',
  /** List per job: its kept log lines in seq order (`lua/scripts/logs-append.lua`). */
  logs: 'logs:$',
  /** Hash per job: its log's kept, dropped, claim and next. */
  logHead: 'log-head:$',
  /** Hash per event: its JSON, name, expiry and index members. */
  event: 'event:$',
  /** Lex zsets by (seq, id), publish order: every event, and events per name. */
  eventsOrder: 'events:order',
  eventsNameOrder: 'events:name-order:$',
  /** Lex zset per name by (publishedAt, seq): where `find({ after })` starts. */
  eventsName: 'events:name:$',
  /**
   * Zset per name by expiresAt, member (publishedAt, id): only events no other event of the name
   * outlives while published later, so the first one unexpired has the latest publishedAt.
   */
  eventsLive: 'events:live:$',
  /** Set per published event: the waiters it still has to wake (publish wakes in batches). */
  waking: 'waking:$',
  /** Lex zset: (seq, id, name) of events whose waking set is not empty yet. */
  wakesPending: 'wakes-pending',
  /** Zset: event id by expiresAt. */
  eventExpiry: 'event-expiry',
  eventSeq: 'event-seq',
  /** Hash per lease name: holder, expiresAt. */
  lease: 'lease:$',
  /** Zset per slot key: holder by expiresAt. */
  slot: 'slot:$',
  /** Hash: mark name -> value (named monotonic marks). */
  marks: 'marks',
  /** Hash: paused queue -> pausedAt. The claim script skips these queues. */
  paused: 'paused',
  /** Hash per backfill run: its fields, the cursor as JSON text (`lua/include/backfills.lua`). */
  backfill: 'backfill:$',
  /**
   * Zsets of runIds by startedAt (equal scores order by runId): every run, per name, per tenant,
   * and per holder `qn(tenant, name)` (tenant '' for none), which start counts and trims.
   */
  backfillsOrder: 'backfills:order',
  backfillsName: 'backfills:name:$',
  backfillsTenant: 'backfills:tenant:$',
  backfillsHolder: 'backfills:holder:$',
  /** Hash per stored schedule, the part `qn(tenant, name)` (tenant '' for none): its fields. */
  schedule: 'schedule:$',
  /**
   * Lex zsets of schedule members (schedule-position.ts: list position, NUL, hash part): every
   * schedule, and per tenant. Zset: the unpaused ones by nextAt (ties in member order).
   */
  schedulesOrder: 'schedules:order',
  schedulesTenant: 'schedules:tenant:$',
  schedulesDue: 'schedules:due',
  /** Pub/sub channel: NUL-joined queues that got work; a cancel of a running job (NUL, id, queue). */
  wake: 'wake',
  /** Pub/sub channel: NUL-joined ids of the jobs one change settled (watchSettles). */
  settled: 'settled',
  /**
   * Stream: the lifecycle events (`lua/include/lifecycle.lua`), one entry each, its id the
   * event's position; trimmed to the retention as it is written.
   */
  lifecycle: 'lifecycle',
  /** String: written before each WAIT of `durability`, so the WAIT covers every earlier write. */
  confirm: 'confirm',
} as const;

type Shape = keyof typeof SHAPES;
type KeyBuilders = { readonly [K in Shape]: (...parts: string[]) => string };

const pieces = (shape: Shape): string[] => SHAPES[shape].split('$');

/** The key names of one driver: `base` is `{prefix}:`, the script's KEYS[1]. */
export interface Keys extends KeyBuilders {
  readonly base: string;
  /** The SCAN pattern matching every key of this prefix (tests clean up with it). */
  readonly pattern: string;
}

export function keysFor(prefix: string): Keys {
  const allowed =
    'must be a non-empty name without { } * ? [ ] or \\ (it becomes the cluster hash tag {prefix})';
  const example = "createRedisDriver({ url, prefix: 'berth_jobs' })";
  if (prefix.length === 0) {
    throw configInvalid({ option: 'prefix', reason: 'is empty', allowed, example });
  }
  if (/[{}*?[\]\\]/.test(prefix)) {
    throw configInvalid({
      option: 'prefix',
      reason: `is ${JSON.stringify(prefix)}, which holds a character it must not`,
      allowed,
      example,
    });
  }
  const base = `{${prefix}}:`;
  const builders = Object.fromEntries(
    (Object.keys(SHAPES) as Shape[]).map((shape) => {
      const parts = pieces(shape);
      const build = (...values: string[]) =>
        base + parts.map((part, index) => part + (values[index] ?? '')).join('');
      return [shape, build];
    }),
  ) as KeyBuilders;
  return { ...builders, base, pattern: `${base}*` };
}

/** The (queue, name) part of the lane keys, as the scripts' `qn` builds it. */
export const laneOf = (queue: string, name: string): string => `${queue.length}:${queue}:${name}`;

/**
 * A number as index members hold it: 16 digits, zero-padded, so byte order is number order
 * (the scripts write the same with '%016.0f').
 */
export const memberDigits = (value: number): string => String(value).padStart(16, '0');

const luaName = (shape: Shape): string => `k_${shape}`;

/**
 * The same shapes as Lua functions (`k_job(id)` ...) over `KEYS[1]`, made from the table above so
 * the scripts and the TypeScript side cannot name a key differently: the generator's `keys`
 * include (scripts/lua/module.ts), of which each script keeps the builders it calls.
 */
export const LUA_KEYS: string = [
  'local B = KEYS[1]',
  ...(Object.keys(SHAPES) as Shape[]).map((shape) => {
    const parts = pieces(shape);
    const args = parts.slice(1).map((_, index) => `a${index + 1}`);
    const body = parts
      .map((part, index) => {
        const literal = `'${part}'`;
        const arg = args[index];
        return arg === undefined ? literal : `${literal} .. ${arg}`;
      })
      .join(' .. ');
    return `local function ${luaName(shape)}(${args.join(', ')}) return B .. ${body} end`;
  }),
].join('\n');

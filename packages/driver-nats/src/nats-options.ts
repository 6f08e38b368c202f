import { type BaseDriverOptions, configInvalid, resolveBaseOptions } from '@berth/core/driver';
import type { NatsConnection } from '@nats-io/transport-node';
import { DRIVER } from './context.js';
import { subjectsFor } from './subjects.js';

/**
 * The connection (or servers), the prefix, and the base options (`clock`, `hooks`,
 * `maxPayloadBytes`, `cursorSecret`, whose default derives from the prefix: see
 * BaseDriverOptions).
 */
export interface NatsDriverOptions extends BaseDriverOptions {
  /** The app's own connection: used, never closed by the driver. Give this or `servers`. */
  readonly connection?: NatsConnection;
  /** Server URL(s): the driver opens (and on close, closes) its own connection. */
  readonly servers?: string | readonly string[] | undefined;
  /** Names every stream, bucket and subject of this queue (`<prefix>_jobs`...). Default `berth`. */
  readonly prefix?: string;
  /**
   * Replicas of each bucket the driver creates (1, or 3 on a cluster). Default 1. Above 1 needs
   * nats-server 2.9.21 or later (earlier ones decide a replicated stream's conditional writes
   * outside its consensus, so one job can be claimed twice): on an older server every call
   * answers CONFIG_INVALID, as it does for a prefix whose buckets exist with more than one replica.
   */
  readonly replicas?: number;
  /**
   * The longest one request may take, and the longest the watch may stand still while a call
   * waits for it. Default 10 s.
   */
  readonly timeoutMs?: number;
  /**
   * How long the delete marker of a purged job or event stays before a purge removes it. A
   * process whose watch was not confirmed current for half of this (an outage, a freeze) replays
   * the bucket at its next reconnect or full sync. Default 1 h.
   */
  readonly deleteMarkerGraceMs?: number;
}

export const DEFAULT_NATS_SERVERS = 'nats://127.0.0.1:4222';
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MARKER_GRACE_MS = 3_600_000;

/** An integer option in `[min, max]`, else CONFIG_INVALID showing a valid call. */
function integer(option: string, value: number, min: number, max: number, example: string) {
  if (Number.isInteger(value) && value >= min && value <= max) return value;
  throw configInvalid({
    option,
    reason: `is ${String(value)}; it must be an integer from ${min} to ${max}`,
    allowed: `must be an integer from ${min} to ${max}`,
    example: `createNatsDriver({ servers, ${option}: ${example} })`,
  });
}

/** The options as the driver uses them: checked, defaults filled in. */
export interface NatsSettings {
  readonly base: ReturnType<typeof resolveBaseOptions>;
  /** The payload limit, bytes. */
  readonly limit: number;
  readonly timeoutMs: number;
  readonly replicas: number;
  readonly markerGraceMs: number;
  readonly subjects: ReturnType<typeof subjectsFor>;
}

/** The options checked (CONFIG_INVALID naming the first bad one), with their defaults. */
export function screenOptions(options: NatsDriverOptions): NatsSettings {
  if (options.connection !== undefined && options.servers !== undefined) {
    throw configInvalid({
      option: 'connection',
      reason: 'and servers were both given',
      allowed:
        'is your own NatsConnection; pass it or servers (the driver connects itself), not both',
      example: 'createNatsDriver({ connection: await connect({ servers: process.env.NATS_URL }) })',
    });
  }
  const most = Number.MAX_SAFE_INTEGER;
  const base = resolveBaseOptions(DRIVER, options.prefix ?? 'berth', options);
  const limit = integer('maxPayloadBytes', base.maxPayloadBytes, 1, most, '1_048_576');
  const timeoutMs = integer(
    'timeoutMs',
    options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    1,
    most,
    '10_000',
  );
  const replicas = integer('replicas', options.replicas ?? 1, 1, 5, '3');
  const grace = options.deleteMarkerGraceMs ?? DEFAULT_MARKER_GRACE_MS;
  const markerGraceMs = integer('deleteMarkerGraceMs', grace, 0, most, '3_600_000');
  const subjects = subjectsFor(options.prefix ?? 'berth');
  return { base, limit, timeoutMs, replicas, markerGraceMs, subjects };
}

import { configInvalid } from '@berth/core/driver';

/** The schemes a NATS server URL may have for the Node transport; `tls` asks for TLS. */
const SCHEMES = new Set(['nats:', 'tls:']);

/**
 * Refuses, at construction, a server URL of another scheme (a `redis://` URL given by mistake),
 * which the client would otherwise try, and fail, on every reconnect. `host:port` without a
 * scheme is fine: the client reads it as nats://.
 */
export function screenServers<T extends string | readonly string[] | undefined>(servers: T): T {
  for (const url of [servers ?? []].flat()) {
    const scheme = /^([a-z][a-z0-9+.-]*:)\/\//i.exec(url)?.[1]?.toLowerCase();
    if (scheme === undefined || SCHEMES.has(scheme)) continue;
    throw configInvalid({
      option: 'servers',
      reason: `has the scheme ${scheme}//, which is not NATS`,
      allowed: 'must be nats:// URLs (tls:// for TLS), or host:port',
      example: "createNatsDriver({ servers: 'nats://127.0.0.1:4222' })",
    });
  }
  return servers;
}

/**
 * The first nats-server whose conditional writes to a replicated stream are decided inside the
 * stream's consensus. Before it (2.9.10, Debian bookworm's) the expected-sequence check ran on
 * the leader outside it, so two claimers could both land a write over the same revision: a
 * healthy 3-node R3 cluster handed 572 of 3,000 jobs out twice under one claim number.
 */
export const REPLICATED_SINCE = [2, 9, 21] as const;
const REPLICATED_SINCE_TEXT = REPLICATED_SINCE.join('.');

/** `2.10.27` (or `2.11.0-RC.1`) → [2, 10, 27]; anything else reads as 0.0.0 (never trusted). */
export function parseServerVersion(version: string | undefined): readonly [number, number, number] {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version ?? '');
  return match === null ? [0, 0, 0] : [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** Whether a server of `version` may hold the driver's buckets with more than one replica. */
export function replicatesSafely(version: string | undefined): boolean {
  const [major, minor, patch] = parseServerVersion(version);
  const [needMajor, needMinor, needPatch] = REPLICATED_SINCE;
  if (major !== needMajor) return major > needMajor;
  if (minor !== needMinor) return minor > needMinor;
  return patch >= needPatch;
}

const NEEDED = `nats-server ${REPLICATED_SINCE_TEXT} or later on every server of the cluster (2.10.27 is the tested one)`;
const WHY = `conditional writes to a replicated stream are checked outside its consensus before ${REPLICATED_SINCE_TEXT}, so two workers can claim one job under the same claim number`;

/**
 * Refuses a replicated bucket on a server too old to replicate it safely: the `replicas` option
 * asking for one, or (`existing`) a bucket of the prefix someone already made with more replicas.
 */
export function screenReplicas(input: {
  readonly version: string | undefined;
  readonly replicas: number;
  readonly existing?: { readonly stream: string; readonly replicas: number } | undefined;
}): void {
  if (replicatesSafely(input.version)) return;
  const server = `nats-server ${input.version ?? '(of unknown version)'}`;
  if (input.replicas > 1) {
    throw configInvalid({
      option: 'replicas',
      reason: `is ${input.replicas}, and the server is ${server}: ${WHY}`,
      allowed: `above 1 needs ${NEEDED}; below that keep replicas: 1`,
      example: 'createNatsDriver({ servers, replicas: 1 })',
    });
  }
  const existing = input.existing;
  if (existing !== undefined && existing.replicas > 1) {
    throw configInvalid({
      option: 'prefix',
      reason: `names the stream ${existing.stream}, which exists with ${existing.replicas} replicas on ${server}: ${WHY}`,
      allowed: `must name buckets of one replica below ${REPLICATED_SINCE_TEXT}: upgrade to ${NEEDED}, or use a prefix whose buckets the driver makes with replicas: 1`,
      example: "createNatsDriver({ servers, prefix: 'berth-r1' })",
    });
  }
}

import { configInvalid } from '@berth/core/driver';
import { Cluster, type ClusterOptions } from 'ioredis';
import type { OwnedConnection } from './connection.js';

/** One startup node of a Redis Cluster: the client learns the others from it. */
export interface ClusterNode {
  readonly host: string;
  readonly port: number;
}

const EXAMPLE =
  "createRedisDriver({ cluster: [{ host: '10.0.0.1', port: 6379 }], prefix: 'billing' })";

/** Refuses, at construction, a cluster list the client could never connect with. */
export function screenCluster(
  cluster: readonly ClusterNode[],
  given: { readonly url: boolean; readonly redis: boolean; readonly sentinels: boolean },
): readonly ClusterNode[] {
  const allowed =
    'is a non-empty list of startup nodes, each { host, port } with a port from 1 to 65535';
  const other = given.url
    ? 'url'
    : given.redis
      ? 'redis'
      : given.sentinels
        ? 'sentinels'
        : undefined;
  if (other !== undefined) {
    throw configInvalid({
      option: 'cluster',
      reason: `and ${other} were both given`,
      allowed: `names the cluster the driver connects to; give cluster or ${other}, not both`,
      example: EXAMPLE,
    });
  }
  if (!Array.isArray(cluster) || cluster.length === 0) {
    throw configInvalid({
      option: 'cluster',
      reason: 'is an empty list',
      allowed,
      example: EXAMPLE,
    });
  }
  cluster.forEach((node: unknown, index) => {
    const entry = node as Partial<ClusterNode> | null;
    const fine =
      typeof entry === 'object' &&
      entry !== null &&
      typeof entry.host === 'string' &&
      entry.host.length > 0 &&
      Number.isInteger(entry.port) &&
      (entry.port ?? 0) >= 1 &&
      (entry.port ?? 0) <= 65_535;
    if (!fine) {
      throw configInvalid({
        option: 'cluster',
        reason: `has entry ${index} ${JSON.stringify(node)}, which is not { host, port }`,
        allowed,
        example: EXAMPLE,
      });
    }
  });
  return cluster;
}

/**
 * The client settings the driver's cluster runs with, for the nodes' connections as on one server:
 * a call in flight when a node goes away fails at once (no silent resend of a script that may have
 * run: `retryDelayOnFailover: 0` turns off ioredis' resend of a command whose connection closed),
 * none waits past the command timeout. CLUSTERDOWN, TRYAGAIN and MOVED say the command did not
 * run, so those are retried (`maxRedirections` bounds it). Tests add `natMap` to reach the nodes
 * through proxies.
 */
export function clusterOptions(commandTimeout: number) {
  return {
    redisOptions: {
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      commandTimeout,
      connectTimeout: Math.min(commandTimeout, 10_000),
    },
    enableOfflineQueue: true,
    retryDelayOnFailover: 0,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    maxRedirections: 16,
    // A failover moves slots; reading the map again every second finds the new master soon even
    // for a prefix no MOVED has pointed at yet.
    slotsRefreshInterval: 1_000,
    slotsRefreshTimeout: Math.min(commandTimeout, 2_000),
    clusterRetryStrategy: (times: number) => Math.min(times * 50, 1_000),
  } satisfies ClusterOptions;
}

/**
 * The cluster queues calls made while it reconnects (every node lost) until it is back; they would
 * wait past any timeout and run late, after their caller was told they failed. Each reconnect
 * fails what it holds instead. ioredis keeps that queue to itself: `flushQueue` is not in its
 * declarations, so it is reached by name (and skipped if a version lacks it).
 */
export function failQueuedOnReconnect(cluster: Cluster, lastError: () => Error | undefined): void {
  const internal = cluster as unknown as { flushQueue?: (error: Error) => void };
  cluster.on('reconnecting', () => {
    const last = lastError();
    const why = last === undefined ? '' : ` (${last.message})`;
    internal.flushQueue?.call(
      cluster,
      new Error(`no node of the Redis Cluster is reachable${why}; reconnecting`, { cause: last }),
    );
  });
}

/** A cluster client the driver owns, with the settings above. */
export function openCluster(
  nodes: readonly ClusterNode[],
  commandTimeout: number,
  extra: Pick<ClusterOptions, 'natMap'> = {},
): OwnedConnection<Cluster> {
  const cluster = new Cluster(
    nodes.map(({ host, port }) => ({ host, port })),
    { ...clusterOptions(commandTimeout), ...extra },
  );
  // A node's error says more than the cluster's own "Failed to refresh slots cache".
  let node: Error | undefined;
  let own: Error | undefined;
  const last = () => node ?? own;
  cluster.on('node error', (error: Error) => {
    node = error;
  });
  cluster.on('error', (error: Error) => {
    own = error;
  });
  cluster.on('ready', () => {
    node = undefined;
    own = undefined;
  });
  failQueuedOnReconnect(cluster, last);
  // ioredis Cluster follows failovers through its own slot refreshes: nothing to hang up or notice.
  return {
    redis: cluster,
    lastError: last,
    hungUp: () => undefined,
    noticed: () => {},
    async close() {
      if (cluster.status === 'ready') await cluster.quit().catch(() => {});
      cluster.disconnect();
    },
  };
}

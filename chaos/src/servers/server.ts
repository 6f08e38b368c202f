/**
 * `nats-cluster`: three nats-server 2.10 nodes, buckets with 3 replicas. `redis-cluster`: a Redis
 * Cluster of 3 masters and 3 replicas. `pg-async-commit`: pg with `synchronous_commit = off`, its
 * losses counted against the documented window. `redis-sentinel`: a primary + replica + 3
 * sentinels whose crash is a failover; `redis-sentinel-partition`: the same with the primary cut
 * off from the rest.
 */
export type Backend =
  | 'pg'
  | 'redis'
  | 'nats'
  | 'nats-cluster'
  | 'redis-cluster'
  | 'pg-async-commit'
  | 'redis-sentinel'
  | 'redis-sentinel-partition';

/** A server the suite owns: killing it disturbs nobody else. */
export interface ChaosServer {
  readonly backend: Backend;
  readonly url: string;
  /** Kills the server the hardest way its backend allows (no shutdown, no flush). */
  crash(): Promise<void>;
  /** Starts it again on the same port and data directory; answers once it accepts clients. */
  restart(): Promise<void>;
  /** Stops it for good and removes its data directory. Idempotent. */
  stop(): Promise<void>;
  /** A side that can be cut off: the primary, with a worker and a producer beside it. */
  readonly partition?: PrimaryPartition;
}

/** The primary's network namespace, cut off and healed by the partition nemesis. */
export interface PrimaryPartition {
  /** `[command, args]` that run `command args` on the primary's side under the same pid. */
  command(command: string, args: readonly string[]): [string, string[]];
  /** The `url` the processes on that side use. */
  readonly url: string;
  /** Makes the server on that side the primary (again), its replica in sync. */
  prepare(): Promise<void>;
  cut(): Promise<void>;
  heal(): Promise<void>;
}

/** What a run asks of its server beyond the backend's defaults. */
export interface ServerOptions {
  /**
   * An island's host address (see net/netns.ts) to serve on besides 127.0.0.1, and the island's
   * network to let clients in from.
   */
  readonly island?: { readonly host: string; readonly network: string };
  /** Redis Sentinel: drivers wait for 1 replica after every acknowledging write (default on). */
  readonly durability?: boolean;
}

/**
 * `nats-cluster`: three nats-server 2.10 nodes, buckets with 3 replicas. `redis-cluster`: a Redis
 * Cluster of 3 masters and 3 replicas. `pg-async-commit`: pg with `synchronous_commit = off`, its
 * losses counted against the documented window.
 */
export type Backend =
  | 'pg'
  | 'redis'
  | 'nats'
  | 'nats-cluster'
  | 'redis-cluster'
  | 'pg-async-commit';

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
}

/** What a run asks of its server beyond the backend's defaults. */
export interface ServerOptions {
  /**
   * An island's host address (see net/netns.ts) to serve on besides 127.0.0.1, and the island's
   * network to let clients in from.
   */
  readonly island?: { readonly host: string; readonly network: string };
}

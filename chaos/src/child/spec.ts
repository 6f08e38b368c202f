import type { Driver } from '@berth/core';
import { createNatsDriver } from '@berth/driver-nats';
import { createPgDriver } from '@berth/driver-pg';
import { createRedisDriver } from '@berth/driver-redis';
import type { Backend } from '../servers/server.ts';
import { openSentinelDriver } from './sentinel-driver.ts';

/** Every driver of a run uses this schema (pg) or prefix (redis, nats). */
export const NAMESPACE = 'chaos';

/** What a child process is told on its command line. */
export interface ChildSpec {
  readonly role: 'worker' | 'scheduler' | 'producer';
  readonly backend: Backend;
  readonly url: string;
  readonly ledgerDir: string;
  readonly queues: readonly string[];
  readonly concurrency: number;
  readonly leaseMs: number;
  /** The worker's fallback poll; default 200 ms. */
  readonly pollIntervalMs?: number;
}

/** Messages a child sends its parent over IPC. */
export type ChildMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'leader'; readonly leader: boolean }
  | { readonly type: 'holding' | 'released'; readonly key: string }
  | { readonly type: 'parked'; readonly count: number }
  /** The gate let its parked steps go; `live` of their attempts were not aborted then. */
  | { readonly type: 'let-go'; readonly live: number };

/** Messages a parent sends a worker: hold its steps at the gate, or let them go (step-gate.ts). */
export type ParentMessage = { readonly type: 'hold' | 'release' };

export function openDriver(backend: Backend, url: string): Driver {
  return backend === 'pg' || backend === 'pg-async-commit'
    ? openPgDriver(url)
    : openKeyValueDriver(backend, url);
}

export const openPgDriver = (url: string) =>
  createPgDriver({ connectionString: url, schema: NAMESPACE });

function openKeyValueDriver(
  backend: Exclude<Backend, 'pg' | 'pg-async-commit'>,
  url: string,
): Driver {
  if (backend === 'redis') return createRedisDriver({ url, prefix: NAMESPACE });
  if (backend === 'redis-cluster') {
    const cluster = url.split(',').map((node) => {
      const [host = '', port = ''] = node.split(':');
      return { host, port: Number(port) };
    });
    return createRedisDriver({ cluster, prefix: NAMESPACE });
  }
  if (backend === 'redis-sentinel' || backend === 'redis-sentinel-partition') {
    return openSentinelDriver(url, NAMESPACE);
  }
  if (backend === 'nats-cluster') {
    return createNatsDriver({ servers: url.split(','), prefix: NAMESPACE, replicas: 3 });
  }
  return createNatsDriver({ servers: url, prefix: NAMESPACE });
}

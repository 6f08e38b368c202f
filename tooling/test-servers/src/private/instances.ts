import { setTimeout as sleep } from 'node:timers/promises';
import { type CutProxy, cutProxy } from './proxy.js';
import { type PrivateKind, type PrivateServer, startPrivateServer } from './servers.js';

/**
 * What the conformance kit's group `restart` does to a server (its `ServerControl`, typed here
 * without the kit): restart it, take it away, cut one instance off.
 */
export interface RestartControl {
  readonly replayGraceMs: number;
  restart(): Promise<void>;
  outage(ms: number): Promise<void>;
  freeze(instance: object): Promise<void>;
  thaw(instance: object): Promise<void>;
}

/** Driver instances of one case, each through a proxy of its own to one private server. */
export interface ProxiedInstances {
  /** Opens an instance with `make(url)`, where `url` reaches the server through a fresh proxy. */
  open<T extends object>(make: (url: string) => T | Promise<T>): Promise<T>;
  /** The kit's control over the server and these instances. */
  readonly control: RestartControl;
  /** Closes every proxy (close the instances first). */
  close(): Promise<void>;
}

export function proxiedInstances(server: PrivateServer, replayGraceMs: number): ProxiedInstances {
  const proxies = new Map<object, CutProxy>();
  const proxyOf = (instance: object): CutProxy => {
    const proxy = proxies.get(instance);
    if (proxy === undefined) throw new Error('this instance was not opened through open()');
    return proxy;
  };
  return {
    async open(make) {
      const proxy = await cutProxy(server.port);
      try {
        const instance = await make(server.url(proxy.port));
        proxies.set(instance, proxy);
        return instance;
      } catch (error) {
        await proxy.close();
        throw error;
      }
    },
    control: {
      replayGraceMs,
      async restart() {
        await server.stop();
        await server.start();
      },
      async outage(ms) {
        await server.stop();
        await sleep(ms);
        await server.start();
      },
      async freeze(instance) {
        proxyOf(instance).freeze();
      },
      thaw: (instance) => proxyOf(instance).thaw(),
    },
    async close() {
      await Promise.all([...proxies.values()].map((proxy) => proxy.close()));
      proxies.clear();
    },
  };
}

/**
 * A private server of `kind` for one test file: started by the first `get()`, stopped by
 * `dispose()` (call it from the file's `afterAll`).
 */
export function privateServerOnce(kind: PrivateKind): {
  get(): Promise<PrivateServer>;
  dispose(): Promise<void>;
} {
  let started: Promise<PrivateServer> | undefined;
  return {
    get: () => {
      started ??= startPrivateServer(kind);
      return started;
    },
    dispose: async () => {
      const server = await started?.catch(() => undefined);
      started = undefined;
      await server?.dispose();
    },
  };
}

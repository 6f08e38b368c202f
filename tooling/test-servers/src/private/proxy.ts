import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a server, for ONE client instance: cutting it off cuts off that
 * instance alone.
 */
export interface CutProxy {
  readonly port: number;
  /**
   * From now on the instance's connections carry nothing: their server side is closed (the
   * server drops the session), their client side is held open and silent, so the instance is
   * not told. New connections are held the same way.
   */
  freeze(): void;
  /** Closes every held connection (resolves once the client closed its side too) and forwards again. */
  thaw(): Promise<void>;
  /**
   * From now on answers stop: what the instance sends reaches the server, nothing comes back,
   * and the instance is not told (every answer it waits for is lost). Until `refuse`.
   */
  mute(): void;
  /**
   * Drops every connection and, until `accept`, every new one at once: to the instance the
   * server is gone (an outage), whatever the server itself is doing.
   */
  refuse(): void;
  accept(): void;
  close(): Promise<void>;
}

/** How long thaw waits for a client to close its side before it drops the connection itself. */
const CLIENT_CLOSE_MS = 2_000;

function closedByClient(client: Socket): Promise<void> {
  if (client.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => client.destroy(), CLIENT_CLOSE_MS);
    client.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    // Reading again lets the client's FIN in; what it still sends is dropped.
    client.resume();
    client.end();
  });
}

/** Starts a proxy on a free loopback port forwarding to `targetPort` on loopback. */
export async function cutProxy(targetPort: number): Promise<CutProxy> {
  const pairs = new Map<Socket, Socket>();
  const held = new Set<Socket>();
  let frozen = false;
  let refusing = false;
  let muted = false;

  const hold = (client: Socket) => {
    client.pause();
    held.add(client);
    client.once('close', () => held.delete(client));
  };

  const server = createServer((client) => {
    client.on('error', () => {});
    if (refusing) {
      client.destroy();
      return;
    }
    if (frozen) {
      hold(client);
      return;
    }
    const upstream = connect({ host: '127.0.0.1', port: targetPort });
    upstream.on('error', () => {});
    pairs.set(client, upstream);
    client.pipe(upstream);
    if (muted) upstream.resume();
    else upstream.pipe(client);
    const drop = () => {
      if (pairs.get(client) !== upstream) return;
      pairs.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.once('close', drop);
    upstream.once('close', drop);
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });

  return {
    port,
    freeze() {
      frozen = true;
      for (const [client, upstream] of [...pairs]) {
        pairs.delete(client);
        client.unpipe(upstream);
        upstream.unpipe(client);
        upstream.destroy();
        hold(client);
      }
    },
    async thaw() {
      frozen = false;
      await Promise.all([...held].map(closedByClient));
    },
    mute() {
      muted = true;
      for (const upstream of pairs.values()) {
        upstream.unpipe();
        upstream.resume();
      }
    },
    refuse() {
      refusing = true;
      muted = false;
      for (const [client, upstream] of [...pairs]) {
        pairs.delete(client);
        client.destroy();
        upstream.destroy();
      }
    },
    accept() {
      refusing = false;
    },
    async close() {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      for (const client of held) client.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

import type pg from 'pg';

/**
 * Calls `listener` on every NOTIFY of `channel` (and once at each (re)connect, to look for rows
 * staged while none listened); answers how to stop. A listening connection that breaks is made
 * again; meanwhile the relay's poll finds rows.
 */
export async function listenForStaged(
  pool: pg.Pool,
  channel: string,
  listener: () => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let current: pg.PoolClient | undefined;
  const detachers = new Map<pg.PoolClient, () => void>();
  const detach = (client: pg.PoolClient) => {
    detachers.get(client)?.();
    detachers.delete(client);
  };
  const listen = async (): Promise<void> => {
    if (stopped) return;
    try {
      const client = await pool.connect();
      const notified = (message: pg.Notification) => {
        if (message.channel === channel && !stopped) listener();
      };
      const failed = (error: Error) => {
        detach(client);
        if (current === client) current = undefined;
        client.release(error);
        setTimeout(() => void listen(), 1_000).unref();
      };
      // A pooled client outlives this listener: its handlers go with it, or a later
      // LISTEN on the same connection would call a stopped listener.
      detachers.set(client, () => {
        client.off('notification', notified);
        client.off('error', failed);
      });
      client.on('notification', notified);
      client.on('error', failed);
      await client.query(`LISTEN "${channel}"`);
      current = client;
      // Rows staged while no connection listened are not missed for long: look now.
      listener();
    } catch {
      setTimeout(() => void listen(), 1_000).unref();
    }
  };
  await listen();
  return async () => {
    stopped = true;
    const client = current;
    current = undefined;
    if (client === undefined) return;
    await client.query(`UNLISTEN "${channel}"`).catch(() => {});
    detach(client);
    client.release();
  };
}

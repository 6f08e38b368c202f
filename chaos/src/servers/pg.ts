import { startPrivatePg } from '@berth/test-servers';
import type { ChaosServer, ServerOptions } from './server.ts';

/**
 * A private PostgreSQL cluster with the default durability settings (fsync on,
 * synchronous_commit on). A crash is `pg_ctl stop -m immediate`: no checkpoint, the next start
 * replays the WAL.
 */
export async function startPg(options: ServerOptions = {}): Promise<ChaosServer> {
  const { island } = options;
  const pg = await startPrivatePg({
    durable: true,
    maxConnections: 200,
    ...(island === undefined ? {} : { listen: [island.host], trust: [island.network] }),
  });
  let stopped = false;
  return {
    backend: 'pg',
    url: `postgres://postgres@127.0.0.1:${pg.port}/postgres`,
    crash: pg.crash,
    restart: pg.start,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.dispose();
    },
  };
}

import { startPrivatePg } from '@berth/test-servers';
import type { ChaosServer } from './server.ts';

/** How often the WAL writer flushes: set, not left to the default, as the window depends on it. */
const WAL_WRITER_DELAY_MS = 200;

/**
 * What a crash may lose with `synchronous_commit = off`: a commit is acknowledged before its WAL
 * is flushed, and PostgreSQL documents the delay before the WAL writer flushes it as at most
 * three times `wal_writer_delay`. The checker counts a loss acknowledged this long before the
 * crash (or while the server was being killed) as inside the window, any other as a failure.
 */
export const ASYNC_COMMIT_WINDOW_MS = 3 * WAL_WRITER_DELAY_MS;

/**
 * A private PostgreSQL cluster with `synchronous_commit = off` (fsync on). A crash is a SIGKILL of
 * the postmaster and every backend at once: nothing flushes on the way down.
 */
export async function startPgAsyncCommit(): Promise<ChaosServer> {
  const pg = await startPrivatePg({
    durable: true,
    maxConnections: 200,
    settings: { synchronous_commit: 'off', wal_writer_delay: `${WAL_WRITER_DELAY_MS}ms` },
  });
  let stopped = false;
  return {
    backend: 'pg-async-commit',
    url: `postgres://postgres@127.0.0.1:${pg.port}/postgres`,
    crash: pg.kill,
    restart: pg.start,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.dispose();
    },
  };
}

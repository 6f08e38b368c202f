import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { withPg } from '../systems/pg-admin.ts';

const run = promisify(execFile);

export type RecordCounts = Readonly<Record<string, number>>;

/** Where the server keeps its WAL and the tool that reads it, asked of the server itself. */
export async function walPlace(url: string): Promise<{ dir: string; waldump: string }> {
  return withPg(url, async (client) => {
    const { rows } = await client.query<{ dir: string; version: string }>(
      `SELECT current_setting('data_directory') || '/pg_wal' AS dir,
              current_setting('server_version_num') AS version`,
    );
    const row = rows[0];
    if (row === undefined) throw new Error('the server answered no settings');
    const major = Math.floor(Number(row.version) / 10_000);
    return { dir: row.dir, waldump: `/usr/lib/postgresql/${major}/bin/pg_waldump` };
  });
}

/** The server's WAL insert position now. */
export async function walPosition(url: string): Promise<string> {
  return withPg(url, async (client) => {
    const { rows } = await client.query<{ lsn: string }>(
      'SELECT pg_current_wal_insert_lsn()::text AS lsn',
    );
    return rows[0]?.lsn ?? '0/0';
  });
}

/** Waits until the server has flushed its WAL up to `lsn`, so pg_waldump can read to it. */
export async function walFlushed(url: string, lsn: string): Promise<void> {
  await withPg(url, async (client) => {
    for (;;) {
      const { rows } = await client.query<{ behind: boolean }>(
        'SELECT pg_current_wal_flush_lsn() < $1::pg_lsn AS behind',
        [lsn],
      );
      if (rows[0]?.behind !== true) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
}

/** WAL bytes between two positions, as the server counts them. */
export async function walBytes(url: string, from: string, to: string): Promise<number> {
  return withPg(url, async (client) => {
    const { rows } = await client.query<{ bytes: string }>(
      'SELECT pg_wal_lsn_diff($2::pg_lsn, $1::pg_lsn)::bigint AS bytes',
      [from, to],
    );
    return Number(rows[0]?.bytes ?? 0);
  });
}

/**
 * Records per kind between two positions, from `pg_waldump --stats=record`: every row version,
 * index entry, lock and commit the server wrote (the whole server's: nothing else may run).
 */
export async function recordCounts(
  place: { dir: string; waldump: string },
  from: string,
  to: string,
): Promise<RecordCounts> {
  const { stdout } = await run(
    place.waldump,
    ['-p', place.dir, '-s', from, '-e', to, '--stats=record'],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const counts: Record<string, number> = {};
  for (const line of stdout.split('\n')) {
    // "Heap/INSERT     20000 ( 33.33) ..." : the kind, then its count.
    const match = /^(\S+\/\S+)\s+(\d+)\s/.exec(line.trim());
    if (match?.[1] !== undefined && match[2] !== undefined) counts[match[1]] = Number(match[2]);
  }
  return counts;
}

import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { announceSql, retireSql, WATCH_SLOTS } from './sql/settle-notice.js';

const FIRST_RETRY_MS = 1;
const LAST_RETRY_MS = 50;

/**
 * Takes every presence slot of the settle channel `channel` on `client`, a listening connection
 * that LISTENs on it already (see sql/settle-notice.ts): from then on every settle statement
 * notifies. A slot an acking statement holds is free at its commit, so the missing ones are
 * tried again shortly; the connection serves other statements meanwhile.
 */
export async function announce(client: pg.Client, channel: string): Promise<void> {
  let missing = Array.from({ length: WATCH_SLOTS }, (_, slot) => slot);
  for (let waitMs = FIRST_RETRY_MS; ; waitMs = Math.min(waitMs * 2, LAST_RETRY_MS)) {
    const { rows } = await client.query<{ slot: number; held: boolean }>(announceSql, [
      channel,
      missing,
    ]);
    missing = rows.filter((row) => !row.held).map((row) => row.slot);
    if (missing.length === 0) return;
    await sleep(waitMs);
  }
}

/** Gives back the presence slots `announce` took: settle statements stop notifying. */
export async function retire(client: pg.Client, channel: string): Promise<void> {
  await client.query(retireSql, [channel]);
}

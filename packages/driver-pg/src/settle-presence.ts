import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { announceSql, retireSql, WATCH_SLOTS } from './sql/settle-notice.js';

const FIRST_RETRY_MS = 1;
const LAST_RETRY_MS = 50;
/**
 * How long `announce` waits for slots settling transactions hold, ms. An acking statement holds
 * its slot for one statement; a transaction an app keeps open around a settle can hold it much
 * longer, and a result wait must not hang on it: past this the watch fails and waits poll.
 */
export const ANNOUNCE_DEADLINE_MS = 5_000;

/**
 * Takes every presence slot of the settle channel `channel` on `client`, a listening connection
 * that LISTENs on it already (see sql/settle-notice.ts): from then on every settle statement
 * notifies. A slot an acking statement holds is free at its commit, so the missing ones are
 * tried again shortly; the connection serves other statements meanwhile. Slots still held after
 * `deadlineMs` fail the announce, and the slots it took are given back: a watch holding only
 * some would miss the settles of the others.
 */
export async function announce(
  client: pg.Client,
  channel: string,
  deadlineMs = ANNOUNCE_DEADLINE_MS,
): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  let missing = Array.from({ length: WATCH_SLOTS }, (_, slot) => slot);
  for (let waitMs = FIRST_RETRY_MS; ; waitMs = Math.min(waitMs * 2, LAST_RETRY_MS)) {
    const { rows } = await client.query<{ slot: number; held: boolean }>(announceSql, [
      channel,
      missing,
    ]);
    missing = rows.filter((row) => !row.held).map((row) => row.slot);
    if (missing.length === 0) return;
    if (Date.now() >= deadline) {
      await retire(client, channel);
      throw new Error(
        `${missing.length} presence slots of ${channel} stayed held by settling transactions for ${deadlineMs} ms`,
      );
    }
    await sleep(waitMs);
  }
}

/** Gives back the presence slots `announce` took: settle statements stop notifying. */
export async function retire(client: pg.Client, channel: string): Promise<void> {
  await client.query(retireSql, [channel]);
}

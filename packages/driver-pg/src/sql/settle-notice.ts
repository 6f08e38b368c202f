/**
 * Settle notices: the ids of the jobs a statement settled, sent on the settle channel
 * (`settleChannel`) by that statement, so they are heard only if it commits.
 *
 * A NOTIFY costs even when nobody listens: at commit it takes pg's one notify-queue lock and
 * holds it through the commit's WAL flush, so concurrent notifying commits take turns (measured:
 * 8 connections acking one job per statement, 2.4k → 1.5k acks/s). So a statement notifies only
 * while some watcher holds the settle channel's presence locks: WATCH_SLOTS shared session
 * advisory locks, keyed by the channel and a slot, that every listening connection with a settle
 * watch holds (see settle-presence.ts). The statement probes its slot (`pg_backend_pid()` mod
 * WATCH_SLOTS) with an exclusive try-lock, held to its commit: it fails while a watcher holds
 * the slot (notify), and when it succeeds a watcher arriving waits for this commit before its
 * watch begins, so it then reads this settle instead of missing its notice. Statements on
 * different slots never meet; two on one slot at once only notify needlessly.
 */

/** Presence slots per settle channel: each watching connection holds this many shared locks. */
export const WATCH_SLOTS = 32;

/** Ids per payload: 200 uuids and their commas are 7,399 bytes, under pg's 8,000-byte limit. */
export const IDS_PER_NOTICE = 200;

/**
 * The presence lock key of `channel`'s `slot`. A channel name holds no chr(1), so no event
 * name's lock (migration 3: the schema, chr(1), the name) shares its text.
 */
const presenceKey = (channel: string, slot: string) => `hashtextextended(${channel}, ${slot})`;

/** True while some connection watches `channel` (see above); run once per statement. */
const watched = (channel: string) =>
  `NOT pg_try_advisory_xact_lock(${presenceKey(channel, `pg_backend_pid() % ${WATCH_SLOTS}`)})`;

/** A select-list expression: the notice of one settled row's `id`, when someone watches. */
export const settleNoticeOf = (channel: string, id: string): string =>
  `CASE WHEN ${watched(channel)} THEN pg_notify(${channel}, ${id}::text) END`;

/**
 * The notices of `rows` (a CTE or a parenthesised subquery with `id` and `ord`, the batch item's
 * distinct 1-based position): ids joined by commas, IDS_PER_NOTICE to a payload, so one NOTIFY
 * for a batch of up to 200 and none when no row settled or nobody watches. A SELECT, read by the
 * statement as `(SELECT count(*) FROM <its CTE>)`.
 */
export const settleNotices = (channel: string, rows: string): string => `
        SELECT pg_notify(${channel}, string_agg(r.id::text, ',')) FROM ${rows} r
        WHERE (SELECT ${watched(channel)})
        GROUP BY (r.ord - 1) / ${IDS_PER_NOTICE}`;

/** The notices of rows a statement already committed (a claim's burials): $1 channel, $2 ids. */
export const notifySettledSql = `
  WITH settled AS (SELECT * FROM unnest($2::uuid[]) WITH ORDINALITY AS u(id, ord)),
  told AS (${settleNotices('$1', 'settled')})
  SELECT count(*) AS told FROM told`;

/**
 * A watching connection takes the presence slots $2 of channel $1 without waiting (an acker
 * holding one commits within its statement): each row says whether its slot is now held.
 */
export const announceSql = `
  SELECT slot, pg_try_advisory_lock_shared(${presenceKey('$1', 'slot')}) AS held
  FROM unnest($2::int[]) AS slot`;

/** Gives back every presence slot of channel $1 that `announceSql` took. */
export const retireSql = `
  SELECT count(*) FILTER (WHERE pg_advisory_unlock_shared(${presenceKey('$1', 'slot')})) AS released
  FROM generate_series(0, ${WATCH_SLOTS - 1}) AS slot`;

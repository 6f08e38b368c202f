import { callListener, type Unsubscribe } from '@berth/core/driver';
import pg from 'pg';
import { type ChannelListens, channelListens } from './channel-listens.js';

/** One user of the listening connection: the channels it hears, and what it does with them. */
export interface ListenHolder {
  /** What it is, for the warning when one of its callbacks throws: `wake`, `settle`. */
  readonly label: string;
  readonly channels: readonly string[];
  /** A NOTIFY on one of `channels`. */
  readonly onNotice: (channel: string, payload: string) => void;
  /** The connection was lost and is open again: NOTIFYs sent while it was down were not heard. */
  readonly onReopen?: () => void;
}

export interface ListenConnection {
  /** LISTENs on the holder's channels (opening the connection if need be) until released. */
  hold(holder: ListenHolder): Promise<Unsubscribe>;
  close(): Promise<void>;
}

const FIRST_RETRY_MS = 50;
const LAST_RETRY_MS = 5_000;

/** Calls an app's callback; a throw is only a warning naming `a <label> listener`. */
export const tell = (label: string, callback: () => void): void =>
  callListener(`a ${label} listener`, callback);

/**
 * One connection of its own that LISTENs for every holder (wake subscriptions, settle watches),
 * opened with the first holder and ended with the last; a channel no holder wants any more is
 * UNLISTENed. A lost connection is reopened with backoff, LISTENs again, and tells every holder
 * (`onReopen`). On the `announced` channels it also announces itself (see channel-listens.ts).
 */
export function createListenConnection(
  config: pg.ClientConfig,
  announced: ReadonlySet<string>,
): ListenConnection {
  const holders = new Set<ListenHolder>();
  let client: pg.Client | undefined;
  /** What the current client listens on; replaced with the client. */
  let listens: ChannelListens | undefined;
  let opening: Promise<void> | undefined;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;
  /** A connection was lost: NOTIFYs sent since were not heard, so the next open tells everyone. */
  let missed = false;

  const wanted = () => !closed && holders.size > 0;

  /** LISTENs on `channels` on the current client, once each; a LISTEN in flight is awaited. */
  const listen = (channels: Iterable<string>): Promise<unknown> =>
    listens?.listen(channels) ?? Promise.resolve();

  const scheduleReopen = () => {
    if (!wanted() || retryTimer !== undefined || opening !== undefined) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      // A failed open schedules the next try itself (see `open`).
      if (wanted()) open().catch(() => {});
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  };

  const lost = (gone: pg.Client) => {
    if (client !== gone) return;
    client = undefined;
    listens = undefined;
    missed = true;
    gone.end().catch(() => {});
    scheduleReopen();
  };

  /**
   * Opens the one listening connection unless it is open or opening: a hold during the
   * reconnect backoff opens it, and the retry timer then finds it open.
   */
  const open = (): Promise<void> => {
    if (opening !== undefined) return opening;
    if (client !== undefined) return Promise.resolve();
    opening = (async () => {
      const next = new pg.Client(config);
      // Errors arrive here as well as on the failing call; the connection reopens on either.
      next.on('error', () => lost(next));
      next.on('end', () => lost(next));
      next.on('notification', ({ channel, payload }) => {
        if (payload === undefined) return;
        for (const holder of holders) {
          if (holder.channels.includes(channel)) {
            tell(holder.label, () => holder.onNotice(channel, payload));
          }
        }
      });
      try {
        client = next;
        listens = channelListens(next, announced);
        await next.connect();
        await listen(new Set([...holders].flatMap((holder) => holder.channels)));
        retryMs = FIRST_RETRY_MS;
      } catch (error) {
        if (client === next) {
          client = undefined;
          listens = undefined;
        }
        next.end().catch(() => {});
        throw error;
      }
      if (missed) {
        missed = false;
        for (const { label, onReopen } of holders) {
          if (onReopen !== undefined) tell(label, onReopen);
        }
      }
    })().finally(() => {
      opening = undefined;
    });
    // Whoever asked, a failed open is tried again later while any holder remains.
    opening.catch(() => scheduleReopen());
    return opening;
  };

  const shut = async () => {
    if (retryTimer !== undefined) clearTimeout(retryTimer);
    retryTimer = undefined;
    const current = client;
    client = undefined;
    listens = undefined;
    missed = false;
    await current?.end().catch(() => {});
  };

  const release = async (holder: ListenHolder) => {
    if (!holders.delete(holder)) return;
    if (holders.size === 0) {
      await shut();
      return;
    }
    const still = new Set([...holders].flatMap((other) => other.channels));
    const current = listens;
    for (const channel of holder.channels) {
      // A failure here is a lost connection, which the reopen handles.
      if (!still.has(channel)) await current?.unlisten(channel).catch(() => {});
    }
  };

  return {
    async hold(holder) {
      if (closed) throw new Error('the driver was closed');
      holders.add(holder);
      try {
        await open();
        await listen(holder.channels);
      } catch (error) {
        holders.delete(holder);
        throw error;
      }
      return () => release(holder);
    },
    async close() {
      closed = true;
      holders.clear();
      // Ended first: an open still announcing (waiting for a slot) then fails at once.
      const pending = opening;
      await shut();
      await pending?.catch(() => {});
    },
  };
}

import type pg from 'pg';
import { announce, retire } from './settle-presence.js';
import { listenSql, unlistenSql } from './sql/notify.js';

/** What one listening connection LISTENs on. */
export interface ChannelListens {
  /** LISTENs on each channel not listened yet; resolves once each one is (in flight: awaited). */
  listen(channels: Iterable<string>): Promise<unknown>;
  /** UNLISTENs a channel, after any LISTEN of it and before any later one. */
  unlisten(channel: string): Promise<void>;
}

/**
 * The channels `client` LISTENs on. For a channel of `announced` (the settle channel) the
 * connection also announces itself once it listens, and retires before it stops (see
 * settle-presence.ts). One channel's statements run in the order they were asked for, so a
 * LISTEN asked after an UNLISTEN is never undone by it; another channel's never wait for them.
 */
export function channelListens(client: pg.Client, announced: ReadonlySet<string>): ChannelListens {
  /** Per channel: its LISTEN (and announce), pending or done; absent once UNLISTENed. */
  const listened = new Map<string, Promise<void>>();
  /** Per channel: its last statement, settled either way. */
  const last = new Map<string, Promise<void>>();

  const inTurn = (channel: string, step: () => Promise<void>): Promise<void> => {
    const done = (last.get(channel) ?? Promise.resolve()).then(step);
    const settled = done.catch(() => {});
    last.set(channel, settled);
    return done;
  };

  return {
    listen(channels) {
      const all: Promise<void>[] = [];
      for (const channel of channels) {
        let done = listened.get(channel);
        if (done === undefined) {
          const sending = inTurn(channel, async () => {
            await client.query(listenSql(channel));
            if (announced.has(channel)) await announce(client, channel);
          });
          // A LISTEN that failed is sent again by the next holder of its channel.
          sending.catch(() => {
            if (listened.get(channel) === sending) listened.delete(channel);
          });
          listened.set(channel, sending);
          done = sending;
        }
        all.push(done);
      }
      return Promise.all(all);
    },
    unlisten(channel) {
      if (!listened.delete(channel)) return Promise.resolve();
      return inTurn(channel, async () => {
        if (announced.has(channel)) await retire(client, channel);
        await client.query(unlistenSql(channel));
      });
    },
  };
}

import { debuglog } from 'node:util';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';

/** `NODE_DEBUG=berth` shows each notice payload the driver could not read. */
const debug = debuglog('berth');

/**
 * Subscribes to a core NATS subject of notices (wake-ups, settles) that anyone can publish on:
 * `read` answers a payload it understands, else undefined, and such a payload is ignored and
 * counted under `NODE_DEBUG=berth` as `ignored <ignored> (<n> so far)` (`ignored` holds one
 * `%s` for the subject). A callback that threw would close the connection's reader, and every
 * call with it. Answers the subscription at once, and `ready`, which resolves once it is in
 * place on the server (a round trip).
 */
export function followNotices<T>(
  nc: NatsConnection,
  subject: string,
  read: (data: Uint8Array) => T | undefined,
  ignored: string,
  deliver: (payload: T) => void,
): { readonly subscription: Subscription; readonly ready: Promise<void> } {
  let unreadable = 0;
  const subscription = nc.subscribe(subject, {
    callback: (error, message) => {
      if (error !== null) return;
      const payload = read(message.data);
      if (payload === undefined) {
        unreadable += 1;
        debug(`ignored ${ignored} (%d so far)`, subject, unreadable);
        return;
      }
      deliver(payload);
    },
  });
  return { subscription, ready: nc.flush() };
}

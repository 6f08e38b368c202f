import type { Unsubscribe } from '@berth/core/driver';
import type { ListenConnection } from './listen-connection.js';

/**
 * A `watchSettles` listener on the listening connection: each NOTIFY on the settle channel is
 * one settling statement's ids (or up to IDS_PER_NOTICE of them), joined by commas. Only while
 * some process watches does its connection LISTEN on the channel and hold its presence slots, so
 * only then do settle statements notify (see sql/settle-notice.ts); the watch begins once both
 * hold. Notices sent while the connection was down are lost: a hint, so a result wait then
 * finds its job at its next poll.
 */
export function watchSettles(
  connection: ListenConnection,
  channel: string,
  onSettled: (jobIds: readonly string[]) => void,
): Promise<Unsubscribe> {
  return connection.hold({
    label: 'settle',
    channels: [channel],
    onNotice(_channel, payload) {
      onSettled(payload.split(','));
    },
  });
}

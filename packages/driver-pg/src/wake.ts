import type { Unsubscribe } from '@berth/core/driver';
import { type ListenConnection, tell } from './listen-connection.js';

/** The channels a wake subscription hears: `work` for queues with work, `cancels` for cancels. */
export interface WakeChannels {
  readonly work: string;
  readonly cancels: string;
}

/** A cancel notice's payload: the job's id (a uuid), then its queue. */
const ID_LENGTH = 36;

/**
 * A wake subscription on the listening connection: work NOTIFYs of its queues call `onWork`,
 * cancel NOTIFYs of running jobs of its queues call `onCancelled`. After the connection was lost
 * and reopened each of its queues is woken once, since NOTIFYs sent while it was down were not
 * heard (a cancel missed so is found by the worker's next lease renewal).
 */
export function subscribeWake(
  connection: ListenConnection,
  channels: WakeChannels,
  queues: readonly string[],
  onWork: (queue: string) => void,
  onCancelled?: (jobId: string) => void,
): Promise<Unsubscribe> {
  const subscribed = new Set(queues);
  return connection.hold({
    label: 'wake',
    channels: [channels.work, channels.cancels],
    onNotice(channel, payload) {
      if (channel === channels.work) {
        if (subscribed.has(payload)) onWork(payload);
        return;
      }
      if (onCancelled !== undefined && subscribed.has(payload.slice(ID_LENGTH))) {
        onCancelled(payload.slice(0, ID_LENGTH));
      }
    },
    onReopen() {
      for (const queue of subscribed) tell('wake', () => onWork(queue));
    },
  });
}

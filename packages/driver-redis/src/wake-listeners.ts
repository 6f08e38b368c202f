import { callListener, type Unsubscribe } from '@berth/core/driver';

interface Listener {
  readonly queues: ReadonlySet<string>;
  readonly onWork: (queue: string) => void;
  readonly onCancelled: ((jobId: string) => void) | undefined;
}

/** A cancel notice: a NUL, the job's id (a uuid, 36 characters), then its queue. */
const ID_LENGTH = 36;

/** The listeners of one wake channel, whatever connection (standalone or cluster) feeds it. */
export interface WakeListeners {
  add(
    queues: readonly string[],
    onWork: (queue: string) => void,
    onCancelled?: (jobId: string) => void,
  ): Unsubscribe;
  /**
   * A message on `from`: the NUL-joined queues of one change (a script lists each once), or,
   * starting with a NUL, a cancel of a running job (lua `tellCancelled`).
   */
  deliver(from: string, message: string): void;
  /** After a gap in the subscription: every listener, once for each of its queues. */
  wakeAll(): void;
  clear(): void;
}

export function createWakeListeners(channel: string): WakeListeners {
  const listeners = new Set<Listener>();
  /** Calls one listener's callback; a throw is only a warning. */
  const tell = <T>(callback: (value: T) => void, value: T) =>
    callListener('a redis wake listener', () => callback(value));
  const cancelled = (message: string) => {
    const jobId = message.slice(1, 1 + ID_LENGTH);
    const queue = message.slice(1 + ID_LENGTH);
    for (const { queues, onCancelled } of listeners) {
      if (onCancelled !== undefined && queues.has(queue)) tell(onCancelled, jobId);
    }
  };
  return {
    add(queues, onWork, onCancelled) {
      const listener: Listener = { queues: new Set(queues), onWork, onCancelled };
      listeners.add(listener);
      return async () => {
        listeners.delete(listener);
      };
    },
    deliver(from, message) {
      if (from !== channel) return;
      if (message.startsWith('\0')) {
        cancelled(message);
        return;
      }
      for (const queue of message.split('\0')) {
        for (const listener of listeners) {
          if (listener.queues.has(queue)) tell(listener.onWork, queue);
        }
      }
    },
    wakeAll() {
      for (const listener of listeners) {
        for (const queue of listener.queues) tell(listener.onWork, queue);
      }
    },
    clear: () => listeners.clear(),
  };
}

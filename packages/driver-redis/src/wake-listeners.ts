import type { Unsubscribe } from '@berth/core';

interface Listener {
  readonly queues: ReadonlySet<string>;
  readonly onWork: (queue: string) => void;
}

/** The listeners of one wake channel, whatever connection (standalone or cluster) feeds it. */
export interface WakeListeners {
  add(queues: readonly string[], onWork: (queue: string) => void): Unsubscribe;
  /** A message on `from`: each is the NUL-joined queues of one change (a script lists each once). */
  deliver(from: string, message: string): void;
  /** After a gap in the subscription: every listener, once for each of its queues. */
  wakeAll(): void;
  clear(): void;
}

export function createWakeListeners(channel: string): WakeListeners {
  const listeners = new Set<Listener>();
  const tell = (listener: Listener, queue: string) => {
    try {
      listener.onWork(queue);
    } catch (error) {
      process.emitWarning(`berth: a redis wake listener threw: ${String(error)}`, 'BerthWarning');
    }
  };
  return {
    add(queues, onWork) {
      const listener: Listener = { queues: new Set(queues), onWork };
      listeners.add(listener);
      return async () => {
        listeners.delete(listener);
      };
    },
    deliver(from, message) {
      if (from !== channel) return;
      for (const queue of message.split('\0')) {
        for (const listener of listeners) if (listener.queues.has(queue)) tell(listener, queue);
      }
    },
    wakeAll() {
      for (const listener of listeners) for (const queue of listener.queues) tell(listener, queue);
    },
    clear: () => listeners.clear(),
  };
}

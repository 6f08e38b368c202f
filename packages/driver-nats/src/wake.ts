import { debuglog } from 'node:util';
import type { Unsubscribe } from '@berth/core';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { decodeJson, encodeJson } from './record.js';

/** `NODE_DEBUG=berth` shows each wake payload the driver could not read. */
const debug = debuglog('berth');

/** The queues a wake payload names, or undefined when it is not a JSON list of strings. */
function queuesOf(data: Uint8Array): string[] | undefined {
  try {
    const queues: unknown = decodeJson(data);
    if (Array.isArray(queues) && queues.every((queue) => typeof queue === 'string')) return queues;
  } catch {
    // Not JSON: answered below like any other unreadable payload.
  }
  return undefined;
}

interface Listener {
  readonly queues: ReadonlySet<string>;
  readonly onWork: (queue: string) => void;
}

/**
 * Wake-ups over one core NATS subject: each change that made work claimable publishes the
 * distinct queues it touched, once, after its write landed. A wake is a hint, never the
 * change itself: a lost one only means the worker finds the work at its next poll. After a
 * reconnect every listener is woken for each of its queues, for whatever was missed. Anyone can
 * publish on the subject: a payload that is not a list of queue names is ignored (a callback
 * that threw would close the connection's reader, and every call with it).
 */
export class Wake {
  private readonly listeners = new Set<Listener>();
  private subscription: Subscription | undefined;
  /** Payloads ignored because they were not a list of queue names. */
  private unreadable = 0;

  constructor(
    private readonly nc: NatsConnection,
    private readonly subject: string,
  ) {}

  publish(queues: Iterable<string>): void {
    const distinct = [...new Set(queues)];
    if (distinct.length === 0 || this.nc.isClosed()) return;
    this.nc.publish(this.subject, encodeJson(distinct));
  }

  private tell(listener: Listener, queue: string): void {
    queueMicrotask(() => {
      if (!this.listeners.has(listener)) return;
      try {
        listener.onWork(queue);
      } catch (error) {
        process.emitWarning(`berth: a nats wake listener threw: ${String(error)}`, 'BerthWarning');
      }
    });
  }

  async subscribe(
    queues: readonly string[],
    onWork: (queue: string) => void,
  ): Promise<Unsubscribe> {
    if (this.subscription === undefined) {
      this.subscription = this.nc.subscribe(this.subject, {
        callback: (error, message) => {
          if (error !== null) return;
          const queues = queuesOf(message.data);
          if (queues === undefined) {
            this.unreadable += 1;
            debug(
              'ignored a wake on %s that is not a list of queues (%d so far)',
              this.subject,
              this.unreadable,
            );
            return;
          }
          for (const queue of queues) {
            for (const listener of this.listeners) {
              if (listener.queues.has(queue)) this.tell(listener, queue);
            }
          }
        },
      });
      // The subscription is in place on the server once a round trip has gone through.
      await this.nc.flush();
    }
    const listener: Listener = { queues: new Set(queues), onWork };
    this.listeners.add(listener);
    return async () => {
      this.listeners.delete(listener);
    };
  }

  /** After a reconnect: what was published meanwhile is lost, so every listener looks again. */
  wakeAll(): void {
    for (const listener of this.listeners) {
      for (const queue of listener.queues) this.tell(listener, queue);
    }
  }

  close(): void {
    this.listeners.clear();
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }
}

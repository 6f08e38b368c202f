import { callListenerLater, type Unsubscribe } from '@berth/core/driver';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { followNotices } from './notice-subject.js';
import { decodeJson, encodeJson } from './record.js';

/** A cancel of a running job, as published on the wake subject. */
interface CancelNotice {
  readonly cancelled: string;
  readonly queue: string;
}

/**
 * What a wake payload says: a JSON list of queue names (work), a {@link CancelNotice}, or
 * undefined when it is neither.
 */
function readPayload(data: Uint8Array): string[] | CancelNotice | undefined {
  try {
    const value: unknown = decodeJson(data);
    if (Array.isArray(value)) {
      return value.every((queue) => typeof queue === 'string') ? value : undefined;
    }
    if (typeof value === 'object' && value !== null) {
      const { cancelled, queue } = value as Record<string, unknown>;
      if (typeof cancelled === 'string' && typeof queue === 'string') return { cancelled, queue };
    }
  } catch {
    // Not JSON: answered below like any other unreadable payload.
  }
  return undefined;
}

interface Listener {
  readonly queues: ReadonlySet<string>;
  readonly onWork: (queue: string) => void;
  readonly onCancelled: ((jobId: string) => void) | undefined;
}

/**
 * Wake-ups over one core NATS subject: each change that made work claimable publishes the
 * distinct queues it touched, once, after its write landed; a cancel of a running job publishes
 * a {@link CancelNotice}. A wake is a hint, never the
 * change itself: a lost one only means the worker finds the work at its next poll. After a
 * reconnect every listener is woken for each of its queues, for whatever was missed. Anyone can
 * publish on the subject: a payload that is not a list of queue names is ignored (a callback
 * that threw would close the connection's reader, and every call with it).
 */
export class Wake {
  private readonly listeners = new Set<Listener>();
  private subscription: Subscription | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly subject: string,
  ) {}

  publish(queues: Iterable<string>): void {
    const distinct = [...new Set(queues)];
    if (distinct.length === 0 || this.nc.isClosed()) return;
    this.nc.publish(this.subject, encodeJson(distinct));
  }

  /** Tells listeners that job `id` of `queue`, running, was cancelled (its write landed). */
  publishCancelled(id: string, queue: string): void {
    if (this.nc.isClosed()) return;
    const notice: CancelNotice = { cancelled: id, queue };
    this.nc.publish(this.subject, encodeJson(notice));
  }

  private tell(listener: Listener, call: () => void): void {
    callListenerLater('a nats wake listener', () => this.listeners.has(listener), call);
  }

  private deliver(payload: string[] | CancelNotice): void {
    if (!Array.isArray(payload)) {
      for (const listener of this.listeners) {
        const { onCancelled } = listener;
        if (onCancelled !== undefined && listener.queues.has(payload.queue)) {
          this.tell(listener, () => onCancelled(payload.cancelled));
        }
      }
      return;
    }
    for (const queue of payload) {
      for (const listener of this.listeners) {
        if (listener.queues.has(queue)) this.tell(listener, () => listener.onWork(queue));
      }
    }
  }

  async subscribe(
    queues: readonly string[],
    onWork: (queue: string) => void,
    onCancelled?: (jobId: string) => void,
  ): Promise<Unsubscribe> {
    if (this.subscription === undefined) {
      const { subscription, ready } = followNotices(
        this.nc,
        this.subject,
        readPayload,
        'a wake on %s that is neither a list of queues nor a cancel',
        (payload) => this.deliver(payload),
      );
      this.subscription = subscription;
      await ready;
    }
    const listener: Listener = { queues: new Set(queues), onWork, onCancelled };
    this.listeners.add(listener);
    return async () => {
      this.listeners.delete(listener);
    };
  }

  /** After a reconnect: what was published meanwhile is lost, so every listener looks again. */
  wakeAll(): void {
    for (const listener of this.listeners) {
      for (const queue of listener.queues) this.tell(listener, () => listener.onWork(queue));
    }
  }

  close(): void {
    this.listeners.clear();
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }
}

import { debuglog } from 'node:util';
import { callListenerLater, type Unsubscribe } from '@berth/core/driver';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { followNotices } from './notice-subject.js';
import { decodeJson, encodeJson } from './record.js';

/** `NODE_DEBUG=berth` shows each settle notice the driver could not send. */
const debug = debuglog('berth');

/** The server's message cap when the connection has not said (nats-server's default). */
const DEFAULT_MAX_PAYLOAD = 1_048_576;

/** The ids a settle payload carries: a JSON list of strings, else undefined. */
function readIds(data: Uint8Array): string[] | undefined {
  try {
    const value: unknown = decodeJson(data);
    if (Array.isArray(value) && value.every((id) => typeof id === 'string')) return value;
  } catch {
    // Not JSON: answered below like any other unreadable payload.
  }
  return undefined;
}

interface Listener {
  readonly onSettled: (jobIds: readonly string[]) => void;
}

/**
 * Settle notices over one core NATS subject: each change that settled jobs publishes their ids,
 * once per call or batch, after its writes landed. Nothing is stored: a notice nobody subscribes
 * to is dropped by the server, and one lost (a reconnect) only delays a result wait to its poll.
 * The subject is subscribed only while someone watches. Anyone can publish on it: a payload that
 * is not a list of ids is ignored (a callback that threw would close the connection's reader).
 */
export class SettleNotices {
  private readonly listeners = new Set<Listener>();
  private subscription: Subscription | undefined;
  /** Resolves once the subscription is in place on the server. */
  private subscribed: Promise<void> | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly subject: string,
  ) {}

  /**
   * Tells every watcher that jobs `ids` settled; call once their writes landed. Never throws: a
   * notice is a hint, and the change it reports has landed whatever becomes of it.
   */
  publish(ids: readonly string[]): void {
    if (ids.length === 0 || this.nc.isClosed()) return;
    try {
      this.send(ids);
    } catch (error) {
      debug('a settle notice on %s was not sent: %s', this.subject, String(error));
    }
  }

  /** One message, split only when it would pass the server's message cap. */
  private send(ids: readonly string[]): void {
    const data = encodeJson(ids);
    if (ids.length > 1 && data.byteLength > (this.nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD)) {
      const half = Math.ceil(ids.length / 2);
      this.send(ids.slice(0, half));
      this.send(ids.slice(half));
      return;
    }
    this.nc.publish(this.subject, data);
  }

  private deliver(ids: readonly string[]): void {
    for (const listener of this.listeners) {
      callListenerLater(
        'a settle listener',
        () => this.listeners.has(listener),
        () => listener.onSettled(ids),
      );
    }
  }

  private open(): Promise<void> {
    const { subscription, ready } = followNotices(
      this.nc,
      this.subject,
      readIds,
      'a settle notice on %s that is not a list of ids',
      (ids) => {
        if (ids.length > 0) this.deliver(ids);
      },
    );
    this.subscription = subscription;
    return ready;
  }

  /** Drops the subscription once nobody watches. */
  private release(listener: Listener): void {
    this.listeners.delete(listener);
    if (this.listeners.size > 0) return;
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    this.subscribed = undefined;
  }

  async watch(onSettled: (jobIds: readonly string[]) => void): Promise<Unsubscribe> {
    // Its own object: the same function watching twice is two watchers.
    const listener: Listener = { onSettled };
    this.listeners.add(listener);
    try {
      this.subscribed ??= this.open();
      await this.subscribed;
    } catch (error) {
      this.release(listener);
      throw error;
    }
    return async () => {
      this.release(listener);
    };
  }

  close(): void {
    this.listeners.clear();
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    this.subscribed = undefined;
  }
}

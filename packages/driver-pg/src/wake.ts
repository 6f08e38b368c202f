import type { Unsubscribe } from '@berth/core/driver';
import pg from 'pg';
import { listenSql } from './sql/notify.js';

interface Subscriber {
  readonly queues: ReadonlySet<string>;
  readonly onWork: (queue: string) => void;
  readonly onCancelled: ((jobId: string) => void) | undefined;
}

export interface WakeListener {
  subscribe(
    queues: readonly string[],
    onWork: (queue: string) => void,
    onCancelled?: (jobId: string) => void,
  ): Promise<Unsubscribe>;
  close(): Promise<void>;
}

/** A cancel notice's payload: the job's id (a uuid), then its queue. */
const ID_LENGTH = 36;

const FIRST_RETRY_MS = 50;
const LAST_RETRY_MS = 5_000;

/**
 * LISTEN on a connection of its own, opened on the first subscription and ended with the last:
 * `channel` for work, `cancels` for cancels of running jobs. A lost connection is reopened with
 * backoff and LISTENs again; every subscriber is then woken once for each of its queues, since
 * NOTIFYs sent while it was down were not heard (a cancel missed so is found by the worker's
 * next lease renewal).
 */
export function createWakeListener(
  config: pg.ClientConfig,
  channel: string,
  cancels: string,
): WakeListener {
  const subscribers = new Set<Subscriber>();
  let client: pg.Client | undefined;
  let opening: Promise<void> | undefined;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;
  /** A connection was lost: NOTIFYs sent since were not heard, so the next open wakes everyone. */
  let missed = false;

  /** Calls one subscriber's callback; a throw is only a warning. */
  const tell = <T>(callback: (value: T) => void, value: T) => {
    try {
      callback(value);
    } catch (error) {
      process.emitWarning(`berth: a wake listener threw: ${String(error)}`, 'BerthWarning');
    }
  };

  const deliver = (queue: string, only?: Subscriber) => {
    for (const subscriber of only === undefined ? subscribers : [only]) {
      if (subscriber.queues.has(queue)) tell(subscriber.onWork, queue);
    }
  };

  const deliverCancel = (payload: string) => {
    const jobId = payload.slice(0, ID_LENGTH);
    const queue = payload.slice(ID_LENGTH);
    for (const { queues, onCancelled } of subscribers) {
      if (onCancelled !== undefined && queues.has(queue)) tell(onCancelled, jobId);
    }
  };

  const wanted = () => !closed && subscribers.size > 0;

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
    missed = true;
    gone.end().catch(() => {});
    scheduleReopen();
  };

  /**
   * Opens the one listening connection unless it is open or opening: a subscribe during the
   * reconnect backoff opens it, and the retry timer then finds it open.
   */
  const open = (): Promise<void> => {
    if (opening !== undefined) return opening;
    if (client !== undefined) return Promise.resolve();
    opening = (async () => {
      const next = new pg.Client(config);
      // Errors arrive here as well as on the failing call; the listener reopens on either.
      next.on('error', () => lost(next));
      next.on('end', () => lost(next));
      next.on('notification', (message) => {
        if (message.payload === undefined) return;
        if (message.channel === channel) deliver(message.payload);
        else if (message.channel === cancels) deliverCancel(message.payload);
      });
      try {
        client = next;
        await next.connect();
        await next.query(listenSql(channel));
        await next.query(listenSql(cancels));
        retryMs = FIRST_RETRY_MS;
      } catch (error) {
        if (client === next) client = undefined;
        next.end().catch(() => {});
        throw error;
      }
      if (missed) {
        missed = false;
        for (const subscriber of subscribers) {
          for (const queue of subscriber.queues) deliver(queue, subscriber);
        }
      }
    })().finally(() => {
      opening = undefined;
    });
    // Whoever asked, a failed open is tried again later while anyone still wants wake-ups.
    opening.catch(() => scheduleReopen());
    return opening;
  };

  const shut = async () => {
    if (retryTimer !== undefined) clearTimeout(retryTimer);
    retryTimer = undefined;
    const current = client;
    client = undefined;
    missed = false;
    await current?.end().catch(() => {});
  };

  return {
    async subscribe(queues, onWork, onCancelled) {
      if (closed) throw new Error('the driver was closed');
      const subscriber: Subscriber = { queues: new Set(queues), onWork, onCancelled };
      subscribers.add(subscriber);
      try {
        await open();
      } catch (error) {
        subscribers.delete(subscriber);
        throw error;
      }
      return async () => {
        subscribers.delete(subscriber);
        if (subscribers.size === 0) await shut();
      };
    },
    async close() {
      closed = true;
      subscribers.clear();
      await opening?.catch(() => {});
      await shut();
    },
  };
}

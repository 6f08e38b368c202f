import {
  type NatsConnection,
  PermissionViolationError,
  RequestError,
  TimeoutError,
} from '@nats-io/transport-node';
import { RequestMux } from './request-mux.js';

/**
 * A request whose connection dropped before its answer came. Like a timeout, it may have landed,
 * so it is one (a TimeoutError): every path that treats an unanswered request as maybe landed
 * treats this one the same.
 */
export class AnswerLostError extends TimeoutError {
  constructor() {
    super();
    this.name = 'AnswerLostError';
    this.message = 'the connection dropped before the answer came';
  }
}

/** `nc` as the driver uses it, and what stops following its status (on close). */
export interface LosingConnection {
  readonly nc: NatsConnection;
  stop(): void;
}

/** Where the server tells that a stream has a new leader (a cluster replaced the old one). */
export const leaderElectedSubject = (stream: string): string =>
  `$JS.EVENT.ADVISORY.STREAM.LEADER_ELECTED.${stream}`;

/**
 * `nc` whose requests fail at once when their answer can no longer come, instead of waiting out
 * their whole timeout (every call behind them stalled that long after a server crash):
 * - at a drop, those in flight: nats.js keeps them across the reconnect, but the lost server
 *   never answers what it took;
 * - at each dial after it (status `reconnecting`), those made while the connection was down:
 *   the dial discards what nats.js buffered meanwhile (`resetOutbound`), so they are never sent;
 * - when one of `streams` has a new leader (a cluster replaced a leader that died or was cut
 *   off), those in flight: the old leader never answers what it took, and the cluster drops what
 *   came while the stream had none. The connection itself stayed up.
 * A request made in the moment between such a change and this hearing of it may fail
 * needlessly: like a timeout, that answers "maybe landed", and callers retry.
 * Requests go through one {@link RequestMux}, whose waiting requests are the ones failed.
 */
export function failingLostAnswers(
  nc: NatsConnection,
  streams: readonly string[],
): LosingConnection {
  const { inboxPrefix } = (nc as { options?: { inboxPrefix?: string } }).options ?? {};
  const mux = new RequestMux(nc, inboxPrefix);
  const failAll = () => mux.failAll(() => new AnswerLostError());
  const statuses = nc.status();
  void (async () => {
    for await (const status of statuses) {
      if (status.type === 'disconnect' || status.type === 'reconnecting') failAll();
      // The server refused to take a request's publish: that request is told, as nats.js does.
      if (
        status.type === 'error' &&
        status.error instanceof PermissionViolationError &&
        status.error.operation === 'publish'
      ) {
        mux.failOne(status.error.subject, status.error);
      }
    }
  })();
  void nc.closed().then(() => mux.failAll(() => new RequestError('connection closed')));
  // A subscription the account may not take (permissions) is closed with an error: no election.
  const elections = streams.map((stream) =>
    nc.subscribe(leaderElectedSubject(stream), {
      callback: (error) => {
        if (error === null) failAll();
      },
    }),
  );
  const request = mux.request.bind(mux);
  // Methods are bound once: the clients call them on every request.
  const bound = new Map<PropertyKey, unknown>();
  const wrapped = new Proxy(nc, {
    get(target, key) {
      if (key === 'request') return request;
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      let method = bound.get(key);
      if (method === undefined) {
        method = value.bind(target);
        bound.set(key, method);
      }
      return method;
    },
  });
  const stop = () => {
    (statuses as { stop?: () => void }).stop?.();
    for (const election of elections) election.unsubscribe();
  };
  return { nc: wrapped, stop };
}

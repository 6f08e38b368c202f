import {
  type Msg,
  type NatsConnection,
  type Payload,
  type RequestOptions,
  TimeoutError,
} from '@nats-io/transport-node';

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
 */
export function failingLostAnswers(
  nc: NatsConnection,
  streams: readonly string[],
): LosingConnection {
  const inFlight = new Set<(error: Error) => void>();
  const failAll = () => {
    const failing = [...inFlight];
    inFlight.clear();
    for (const fail of failing) fail(new AnswerLostError());
  };
  const statuses = nc.status();
  void (async () => {
    for await (const status of statuses) {
      if (status.type === 'disconnect' || status.type === 'reconnecting') failAll();
    }
  })();
  // A subscription the account may not take (permissions) is closed with an error: no election.
  const elections = streams.map((stream) =>
    nc.subscribe(leaderElectedSubject(stream), {
      callback: (error) => {
        if (error === null) failAll();
      },
    }),
  );
  const request = (subject: string, payload?: Payload, options?: RequestOptions): Promise<Msg> =>
    new Promise((resolve, reject) => {
      inFlight.add(reject);
      nc.request(subject, payload, options).then(
        (answer) => {
          inFlight.delete(reject);
          resolve(answer);
        },
        (error: unknown) => {
          inFlight.delete(reject);
          reject(error);
        },
      );
    });
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

import {
  createInbox,
  type Msg,
  type NatsConnection,
  NoRespondersError,
  type Payload,
  RequestError,
  type RequestOptions,
  type Subscription,
  TimeoutError,
} from '@nats-io/transport-node';

/** nats.js' own default when a request names no timeout. */
const DEFAULT_TIMEOUT_MS = 1_000;

interface Pending {
  readonly token: string;
  readonly subject: string;
  readonly deadline: number;
  readonly lane: Map<string, Pending>;
  readonly resolve: (answer: Msg) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Requests over one inbox subscription with one timer for all of them, answering as nats.js'
 * `request` does (the answer, a `TimeoutError`, a `RequestError` whose cause is a
 * `NoRespondersError`, the publish's own error). nats.js' request costs, each time, a timer, two
 * extra promises and an `Error` built (with its stack) when it succeeds; a driver call makes
 * several requests, so that was a tenth of the driver's CPU.
 *
 * Timeouts: requests of one timeout expire in the order they were made, so each timeout has a
 * lane in insertion order and the one timer waits for the earliest head. An answer leaves the
 * timer as it is: when it fires early it only re-arms for the new head.
 */
export class RequestMux {
  readonly #nc: NatsConnection;
  readonly #prefix: string;
  readonly #pending = new Map<string, Pending>();
  readonly #lanes = new Map<number, Map<string, Pending>>();
  #subscription: Subscription | undefined;
  #sequence = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Number.POSITIVE_INFINITY;

  constructor(nc: NatsConnection, inboxPrefix?: string) {
    this.#nc = nc;
    this.#prefix = `${createInbox(inboxPrefix)}.`;
  }

  /** How many requests wait for an answer. */
  get size(): number {
    return this.#pending.size;
  }

  request(subject: string, payload?: Payload, options?: RequestOptions): Promise<Msg> {
    const timeoutMs = options?.timeout ?? DEFAULT_TIMEOUT_MS;
    if (options?.noMux === true || options?.reply !== undefined || !(timeoutMs >= 1)) {
      return this.#nc.request(subject, payload, options);
    }
    try {
      this.#subscribe();
    } catch (error) {
      // A closed or draining connection: rejected, never thrown, as nats.js does.
      return Promise.reject(error);
    }
    this.#sequence += 1;
    const token = this.#sequence.toString(36);
    let lane = this.#lanes.get(timeoutMs);
    if (lane === undefined) {
      lane = new Map();
      this.#lanes.set(timeoutMs, lane);
    }
    const deadline = Date.now() + timeoutMs;
    const answer = new Promise<Msg>((resolve, reject) => {
      const pending: Pending = { token, subject, deadline, lane, resolve, reject };
      this.#pending.set(token, pending);
      lane.set(token, pending);
    });
    try {
      this.#nc.publish(subject, payload, {
        reply: this.#prefix + token,
        ...(options?.headers === undefined ? {} : { headers: options.headers }),
      });
    } catch (error) {
      this.#settle(token)?.reject(error as Error);
      return answer;
    }
    if (deadline < this.#timerAt) this.#arm(deadline);
    return answer;
  }

  /** Fails every request waiting for an answer with the error `make` builds for it. */
  failAll(make: (subject: string) => Error): void {
    const failing = [...this.#pending.values()];
    this.#pending.clear();
    for (const lane of this.#lanes.values()) lane.clear();
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    for (const pending of failing) pending.reject(make(pending.subject));
  }

  /** Fails the oldest request to `subject` (the server refused to take its publish). */
  failOne(subject: string, error: Error): void {
    for (const pending of this.#pending.values()) {
      if (pending.subject !== subject) continue;
      this.#settle(pending.token);
      pending.reject(new RequestError(error.message, { cause: error }));
      return;
    }
  }

  #subscribe(): void {
    if (this.#subscription !== undefined) return;
    this.#subscription = this.#nc.subscribe(`${this.#prefix}*`, {
      callback: (error, msg) => {
        if (error !== null) {
          // The inbox was refused or closed: nothing waiting can be answered; a later request
          // subscribes again.
          this.#subscription = undefined;
          this.failAll(() => new RequestError(error.message, { cause: error }));
          return;
        }
        const pending = this.#settle(msg.subject.slice(this.#prefix.length));
        if (pending === undefined) return;
        if (msg.data.length === 0 && msg.headers?.code === 503) {
          const refused = new NoRespondersError(pending.subject);
          pending.reject(new RequestError(refused.message, { cause: refused }));
        } else {
          pending.resolve(msg);
        }
      },
    });
  }

  #settle(token: string): Pending | undefined {
    const pending = this.#pending.get(token);
    if (pending === undefined) return undefined;
    this.#pending.delete(token);
    pending.lane.delete(token);
    return pending;
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = at;
    // Unref'd: a request waits only while the connection is open (or dialling), whose own
    // handles keep the process alive; a timer left behind by answered requests must not.
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, at - Date.now()));
    this.#timer.unref();
  }

  #expire(): void {
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const lane of this.#lanes.values()) {
      for (const pending of lane.values()) {
        if (pending.deadline > now) {
          next = Math.min(next, pending.deadline);
          break;
        }
        this.#settle(pending.token);
        pending.reject(new TimeoutError());
      }
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
  }
}

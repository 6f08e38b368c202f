import { serverUrl } from '@berth/test-servers';
import {
  connect,
  createInbox,
  NoRespondersError,
  RequestError,
  TimeoutError,
} from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { RequestMux } from '../src/request-mux.js';
import { twoConnections } from './two-connections.js';

describe('requests over one inbox and one timer', () => {
  const nats = twoConnections();

  /** A subject whose responder answers each request with its payload reversed. */
  async function echo() {
    const subject = createInbox('echo');
    const sub = nats.other.subscribe(subject, {
      callback: (_error, msg) => {
        msg.respond(new Uint8Array([...msg.data].reverse()));
      },
    });
    await nats.other.flush();
    return { subject, sub };
  }

  /** A subject whose responder takes every request and answers none. */
  async function silent() {
    const subject = createInbox('silent');
    const sub = nats.other.subscribe(subject, { callback: () => {} });
    await nats.other.flush();
    return { subject, sub };
  }

  it('each of many requests in flight gets its own answer, and none waits afterwards', async () => {
    const mux = new RequestMux(nats.client);
    const { subject, sub } = await echo();
    try {
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, n) =>
          mux.request(subject, new Uint8Array([n % 256, 1]), { timeout: 5_000 }),
        ),
      );
      expect(answers.map((answer) => [...answer.data])).toEqual(
        Array.from({ length: 200 }, (_, n) => [1, n % 256]),
      );
      expect(mux.size).toBe(0);
    } finally {
      sub.unsubscribe();
    }
  });

  it('a request nobody answers fails with a TimeoutError at its own timeout, whatever the others wait for', async () => {
    const mux = new RequestMux(nats.client);
    const { subject, sub } = await silent();
    try {
      const long = mux.request(subject, undefined, { timeout: 60_000 }).catch((e: unknown) => e);
      const started = Date.now();
      const short = await mux.request(subject, undefined, { timeout: 150 }).catch((e) => e);
      expect(short).toBeInstanceOf(TimeoutError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      // The long one still waits: the short one's timer did not take it along.
      expect(mux.size).toBe(1);
      mux.failAll(() => new Error('done'));
      expect(await long).toMatchObject({ message: 'done' });
      expect(mux.size).toBe(0);
    } finally {
      sub.unsubscribe();
    }
  });

  it('requests made after an early timeout still time out on time (the timer re-arms)', async () => {
    const mux = new RequestMux(nats.client);
    const { subject, sub } = await silent();
    try {
      const first = await mux.request(subject, undefined, { timeout: 50 }).catch((e) => e);
      const second = await mux.request(subject, undefined, { timeout: 50 }).catch((e) => e);
      expect(first).toBeInstanceOf(TimeoutError);
      expect(second).toBeInstanceOf(TimeoutError);
    } finally {
      sub.unsubscribe();
    }
  });

  it('a subject with no responder fails as nats.js says it: a RequestError caused by NoRespondersError', async () => {
    const mux = new RequestMux(nats.client);
    const failed = await mux
      .request(createInbox('nobody'), undefined, { timeout: 5_000 })
      .catch((e) => e);
    expect(failed).toBeInstanceOf(RequestError);
    expect((failed as RequestError).isNoResponders()).toBe(true);
    expect((failed as RequestError).cause).toBeInstanceOf(NoRespondersError);
  });

  it('a request the connection cannot send fails with the connection error at once', async () => {
    const closing = await connect({ servers: await serverUrl('nats') });
    const mux = new RequestMux(closing);
    await closing.close();
    const failed = await mux.request('anything', undefined, { timeout: 5_000 }).catch((e) => e);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).name).toBe('ClosedConnectionError');
    expect(mux.size).toBe(0);
  });

  it('a request with its own reply subject goes through nats.js unchanged', async () => {
    const mux = new RequestMux(nats.client);
    const { subject, sub } = await echo();
    try {
      const answer = await mux.request(subject, new Uint8Array([1, 2]), {
        timeout: 5_000,
        noMux: true,
      });
      expect([...answer.data]).toEqual([2, 1]);
    } finally {
      sub.unsubscribe();
    }
  });
});

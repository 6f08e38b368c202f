import { serverUrl } from '@berth/test-servers';
import { connect, createInbox, type NatsConnection, TimeoutError } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerLostError, failingLostAnswers, leaderElectedSubject } from '../src/lost-answers.js';

describe('requests whose answer can no longer come', () => {
  let client: NatsConnection;
  let other: NatsConnection;
  beforeAll(async () => {
    const url = await serverUrl('nats');
    [client, other] = await Promise.all([connect({ servers: url }), connect({ servers: url })]);
  });
  afterAll(async () => {
    await Promise.all([client.close(), other.close()]);
  });

  /** A subject whose responder takes every request and answers none; `taken` once one came. */
  async function silent() {
    const subject = createInbox('silent');
    let signal = () => {};
    const taken = new Promise<void>((resolve) => {
      signal = resolve;
    });
    const sub = other.subscribe(subject, { callback: () => signal() });
    await other.flush();
    return { subject, taken, sub };
  }

  it('fail at once when a stream of the driver gets a new leader, not when another stream does', async () => {
    const stream = `KV_${createInbox('lost').replaceAll('.', '_')}`;
    const losing = failingLostAnswers(client, [stream]);
    await client.flush();
    const { subject, taken, sub } = await silent();
    try {
      let settled = false;
      // A timeout no test waits out: a request left to it would hang the case.
      const pending = losing.nc.request(subject, undefined, { timeout: 600_000 }).then(
        () => {
          settled = true;
        },
        (error: unknown) => {
          settled = true;
          return error;
        },
      );
      await taken;
      // Another stream's election is not this driver's: a message sent after it arrives after it.
      const marker = createInbox('marker');
      const seen = new Promise<void>((resolve) => {
        client.subscribe(marker, { max: 1, callback: () => resolve() });
      });
      await client.flush();
      other.publish(leaderElectedSubject(`${stream}_other`));
      other.publish(marker);
      await seen;
      expect(settled).toBe(false);
      other.publish(leaderElectedSubject(stream));
      const failed = await pending;
      expect(failed).toBeInstanceOf(AnswerLostError);
      // Maybe landed, as every unanswered request: every path that handles a timeout handles it.
      expect(failed).toBeInstanceOf(TimeoutError);
    } finally {
      sub.unsubscribe();
      losing.stop();
    }
  }, 30_000);
});

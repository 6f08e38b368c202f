import { createInbox, TimeoutError } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { AnswerLostError, failingLostAnswers, leaderElectedSubject } from '../src/lost-answers.js';
import { twoConnections } from './two-connections.js';

describe('requests whose answer can no longer come', () => {
  const nats = twoConnections();

  /** A subject whose responder takes every request and answers none; `taken` once one came. */
  async function silent() {
    const subject = createInbox('silent');
    let signal = () => {};
    const taken = new Promise<void>((resolve) => {
      signal = resolve;
    });
    const sub = nats.other.subscribe(subject, { callback: () => signal() });
    await nats.other.flush();
    return { subject, taken, sub };
  }

  it('fail at once when a stream of the driver gets a new leader, not when another stream does', async () => {
    const stream = `KV_${createInbox('lost').replaceAll('.', '_')}`;
    const losing = failingLostAnswers(nats.client, [stream]);
    await nats.client.flush();
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
        nats.client.subscribe(marker, { max: 1, callback: () => resolve() });
      });
      await nats.client.flush();
      nats.other.publish(leaderElectedSubject(`${stream}_other`));
      nats.other.publish(marker);
      await seen;
      expect(settled).toBe(false);
      nats.other.publish(leaderElectedSubject(stream));
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

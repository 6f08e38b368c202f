import { setTimeout as sleep } from 'node:timers/promises';
import { type EnqueueResult, isBerthError } from '@berth/core';
import { cutProxy, serverUrl } from '@berth/test-servers';
import { connect } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { dropPrefix, freshPrefix } from './nats-factory.js';

describe('a nats driver whose connection drops while it waits for an answer', () => {
  it('fails the call at the drop, and a try made while it is down at the next dial, as DRIVER_UNAVAILABLE; retried with the same key, the job lands once', async () => {
    const url = await serverUrl('nats');
    const proxy = await cutProxy(Number(new URL(url).port));
    const prefix = freshPrefix();
    // A timeout no test waits out: a call that waited for its lost answer would hang the case.
    const driver = createNatsDriver({
      servers: `nats://127.0.0.1:${proxy.port}`,
      prefix,
      timeoutMs: 600_000,
    });
    // Watches the server directly: the enqueue's first request has reached it.
    const monitor = await connect({ servers: url });
    try {
      await driver.enqueue({ name: 'warm.up' });
      // The driver's own requests, and only those (the shared server's other traffic could make
      // a catch-all subscriber a slow consumer, whose messages the server drops).
      let signal = () => {};
      const reached = new Promise<void>((resolve) => {
        signal = resolve;
      });
      const subjects = ['jobs', 'aux'].flatMap((bucket) => {
        const stream = `KV_${prefix}_${bucket}`;
        return [
          `$KV.${prefix}_${bucket}.>`,
          `$JS.API.DIRECT.GET.${stream}.>`,
          `$JS.API.STREAM.MSG.GET.${stream}`,
          `$JS.API.STREAM.INFO.${stream}`,
        ];
      });
      for (const subject of subjects) {
        monitor.subscribe(subject, {
          callback: (_error, message) => {
            if (message.reply?.startsWith('_INBOX.')) signal();
          },
        });
      }
      await monitor.flush();
      proxy.mute();
      const request = { name: 'lost.answer', idempotencyKey: 'once' };
      const first = driver.enqueue(request).then(
        () => undefined,
        (error: unknown) => error,
      );
      await reached;
      proxy.refuse();
      const failed = await first;
      expect(isBerthError(failed) && failed.code).toBe('DRIVER_UNAVAILABLE');
      proxy.accept();
      // Retried as a caller does: a try made before the reconnect fails the same way.
      let again: EnqueueResult | undefined;
      for (let attempt = 0; again === undefined; attempt += 1) {
        try {
          again = await driver.enqueue(request);
        } catch (error) {
          expect(isBerthError(error) && error.code).toBe('DRIVER_UNAVAILABLE');
          expect(attempt).toBeLessThan(100);
          await sleep(50);
        }
      }
      const listed = await driver.list({ name: 'lost.answer' });
      expect(listed.jobs.map((job) => [job.id, job.state])).toEqual([[again.id, 'ready']]);
    } finally {
      await driver.close();
      await monitor.close();
      await proxy.close();
      await dropPrefix(url, prefix);
    }
  }, 30_000);
});

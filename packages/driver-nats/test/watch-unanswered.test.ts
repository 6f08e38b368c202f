import { randomUUID } from 'node:crypto';
import { systemClock } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { connect } from '@nats-io/transport-node';
import { expect, it } from 'vitest';
import { openContext } from '../src/connect.js';
import { subjectsFor } from '../src/subjects.js';
import { dropPrefix, freshPrefix } from './nats-factory.js';
import { rerouteRequests } from './reroute-requests.js';

// After a reconnect the mirror makes its watch again: one consumer create. A cluster going through
// a rolling restart may leave that create unanswered (sent while the meta leader is killed and
// another not yet elected: 5 s on nats-server 2.10 under load). Every call that waits on the
// watch (reads, and steps' and writes' read-your-writes) allows it `timeoutMs` without progress.
// Waited out for all of `timeoutMs`, the lost create failed them all (DRIVER_UNAVAILABLE after a
// restart, a steps.put among them); asked again after a short try, it lets them answer.
it('a watch whose consumer create goes unanswered after a reconnect is made again in time for the calls waiting on it', async () => {
  const url = await serverUrl('nats');
  const prefix = freshPrefix();
  const subjects = subjectsFor(prefix);
  const nc = await connect({ servers: url });
  const silent = `berth.test.silent.${randomUUID()}`;
  nc.subscribe(silent, { callback: () => {} });
  await nc.flush();
  let withhold = false;
  let withheld = 0;
  rerouteRequests(nc, (subject) => {
    if (!withhold || !subject.startsWith(`$JS.API.CONSUMER.CREATE.${subjects.jobsStream}`)) {
      return undefined;
    }
    withhold = false;
    withheld += 1;
    return { to: silent };
  });
  const context = await openContext({
    servers: undefined,
    connection: nc,
    subjects,
    clock: systemClock,
    hooks: {},
    replicas: 1,
    timeoutMs: 5_000,
    markerGraceMs: 3_600_000,
    lifecycleRetention: 10_000,
  });
  try {
    withhold = true;
    const resumed = context.mirror.resume();
    context.mirror.wrote(await context.jobs.put('probe', '{}'));
    await expect(context.mirror.syncOwn()).resolves.toBeUndefined();
    await resumed;
    expect(withheld).toBe(1);
  } finally {
    context.mirror.stop();
    context.stopStatus();
    await nc.close();
    await dropPrefix(url, prefix);
  }
}, 30_000);

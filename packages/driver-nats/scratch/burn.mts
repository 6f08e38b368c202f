import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createNatsDriver } from '../src/index.ts';

const N = Number(process.env.N ?? 5000);
const LIMIT = Number(process.env.LIMIT ?? 100);
const CLAIMERS = Number(process.env.CLAIMERS ?? 1);
const prefix = `bench-${randomUUID().slice(0, 8)}`;
const servers = 'nats://127.0.0.1:4222';
const driver = createNatsDriver({ servers, prefix });
let t = performance.now();
for (let at = 0; at < N; at += 1000) {
  await driver.enqueueMany(Array.from({ length: Math.min(1000, N - at) }, (_, i) => ({ name: 'w', payload: { i: at + i } })));
}
const enqueueMs = performance.now() - t;
console.log(`bulk enqueue ${N}: ${(N / enqueueMs * 1000).toFixed(0)} jobs/s`);
const claimers = Array.from({ length: CLAIMERS }, (_, i) => i === 0 ? driver : createNatsDriver({ servers, prefix }));
await Promise.all(claimers.map((c) => c.stats()));
t = performance.now();
let done = 0;
await Promise.all(claimers.map(async (c, n) => {
  for (;;) {
    const jobs = await c.claim({ queues: ['default'], limit: LIMIT, workerId: `w${n}`, visibilityTimeoutMs: 60_000 });
    if (jobs.length === 0) return;
    await c.ackMany(jobs.map((job) => ({ fence: { jobId: job.id, workerId: job.claimedBy, claim: job.claim } })));
    done += jobs.length;
  }
}));
const burnMs = performance.now() - t;
console.log(`burn-down ${done} with ${CLAIMERS} claimer(s), limit ${LIMIT}: ${(done / burnMs * 1000).toFixed(0)} jobs/s`);
await Promise.all(claimers.map((c) => c.close()));
const nc = await connect({ servers });
const jsm = await jetstreamManager(nc);
await jsm.streams.delete(`KV_${prefix}_jobs`).catch(() => {});
await jsm.streams.delete(`KV_${prefix}_aux`).catch(() => {});
await nc.close();

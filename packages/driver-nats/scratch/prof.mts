import { randomUUID } from 'node:crypto';
import { createNatsDriver } from '../src/index.ts';
const N = 4000;
const prefix = `bench-${randomUUID().slice(0, 8)}`;
const driver = createNatsDriver({ servers: 'nats://127.0.0.1:4222', prefix });
for (let at = 0; at < N; at += 1000) await driver.enqueueMany(Array.from({ length: 1000 }, (_, i) => ({ name: 'w', payload: { i } })));
const cpu0 = process.cpuUsage(); const t = performance.now();
for (;;) {
  const jobs = await driver.claim({ queues: ['default'], limit: 100, workerId: 'w', visibilityTimeoutMs: 60_000 });
  if (jobs.length === 0) break;
  await driver.ackMany(jobs.map((job) => ({ fence: { jobId: job.id, workerId: 'w', claim: job.claim } })));
}
const cpu = process.cpuUsage(cpu0); const ms = performance.now() - t;
console.log(`burn ${N}: ${(N / ms * 1000).toFixed(0)}/s wall; client cpu per job ${((cpu.user + cpu.system) / N).toFixed(0)}µs`);
await driver.close();

import { jetstream, StorageType } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
const N = 4000;
const nc = await connect({ servers: 'nats://127.0.0.1:4222', noAsyncTraces: true });
const kv = await new Kvm(jetstream(nc)).create(`floor_${Date.now()}`, { history: 1, storage: StorageType.File });
const value = new TextEncoder().encode(JSON.stringify({ id: 'x'.repeat(36), runId: 'y'.repeat(36), name: 'w', queue: 'default', payload: { i: 1 }, state: 'ready', priority: 0, attempts: 0, maxAttempts: 3, runAt: 1, createdAt: 1, updatedAt: 1, claim: 0, seq: 1 }));
const revs = await Promise.all(Array.from({ length: N }, (_, i) => kv.create(`j.${i}`, value)));
const watch = await kv.watch({ key: '>' , include: 'updates_only' as never });
let seen = 0; (async () => { for await (const e of watch) { JSON.parse(new TextDecoder().decode(e.value)); seen++; } })();
const cpu0 = process.cpuUsage(); const t = performance.now();
for (let at = 0; at < N; at += 100) {
  const ids = Array.from({ length: 100 }, (_, i) => at + i);
  const r1 = await Promise.all(ids.map((i) => kv.update(`j.${i}`, value, revs[i] as number)));
  await Promise.all(ids.map((i, k) => kv.update(`j.${i}`, value, r1[k] as number)));
}
while (seen < 2 * N) await new Promise((r) => setTimeout(r, 1));
const ms = performance.now() - t; const cpu = process.cpuUsage(cpu0);
console.log(`floor: two CAS per job + watch, batches of 100: ${(N / ms * 1000).toFixed(0)} jobs/s; client cpu per job ${((cpu.user + cpu.system) / N).toFixed(0)}µs`);
await watch.stop(); await kv.destroy(); await nc.close();

// The per-key concurrency chain of issue 9, item 9: ten 10 ms jobs on one key (limit 1), on a
// worker with default settings (CHAIN_WORKERS=n for n), timed from the enqueue to the last
// completion, on every driver.
// Each hand-off is traced (handler end → slot release → freed event → wake → claim → slot
// acquire → next handler start) through a driver wrapped here, so where the time goes shows.
//
//   pnpm --filter @berth/bench exec tsx --conditions=@berth/source src/key-chain.ts [runs] [drivers]
import { randomUUID } from 'node:crypto';
import { createClient, createWorker, type Driver, defineJob } from '@berth/core';
import { serverUrl } from '@berth/test-servers';

const JOBS = 10;
const JOB_MS = 10;
const TAG = 'slotwake_chain';

type Mark = { readonly at: number; readonly what: string };

/** The driver with the hand-off's calls stamped (performance.now(), ms) as they answer. */
function traced(driver: Driver, marks: Mark[], counts: Map<string, number>): Driver {
  const stamp = (what: string) => marks.push({ at: performance.now(), what });
  const count = (what: string) => counts.set(what, (counts.get(what) ?? 0) + 1);
  const leases = new Proxy(driver.leases, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        count(String(property));
        const answer: unknown = await value.apply(target, args);
        if (property === 'releaseSlot') stamp('released');
        if (property === 'acquireSlot') stamp(answer === true ? 'acquired' : 'acquire-refused');
        return answer;
      };
    },
  });
  const events = new Proxy(driver.events, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        count(`events.${String(property)}`);
        const answer: unknown = await value.apply(target, args);
        if (property === 'publish') stamp('published');
        return answer;
      };
    },
  });
  return new Proxy(driver, {
    get(target, property, receiver) {
      if (property === 'leases') return leases;
      if (property === 'events') return events;
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (property === 'subscribe') {
        return (queues: readonly string[], onWork: (queue: string) => void) =>
          value.call(target, queues, (queue: string) => {
            stamp('woken');
            onWork(queue);
          });
      }
      return async (...args: unknown[]) => {
        count(String(property));
        if (property === 'claim') stamp('claim-asked');
        const answer: unknown = await value.apply(target, args);
        if (property === 'claim') stamp(`claimed ${(answer as unknown[]).length}`);
        return answer;
      };
    },
  });
}

async function openDriver(kind: string): Promise<Driver> {
  if (kind === 'memory') {
    const { createMemoryDriver } = await import('@berth/driver-memory');
    return createMemoryDriver();
  }
  if (kind === 'pg') {
    const { createPgDriver } = await import('@berth/driver-pg');
    const driver = createPgDriver({ connectionString: await serverUrl('pg'), schema: TAG });
    await driver.migrate();
    return driver;
  }
  if (kind === 'redis') {
    const { createRedisDriver } = await import('@berth/driver-redis');
    return createRedisDriver({ url: await serverUrl('redis'), prefix: TAG });
  }
  const { createNatsDriver } = await import('@berth/driver-nats');
  return createNatsDriver({ servers: await serverUrl('nats'), prefix: TAG });
}

interface Run {
  readonly ms: number;
  /** This process's CPU (user + system) over the chain, ms. */
  readonly cpuMs: number;
  readonly calls: Map<string, number>;
  /** Per hand-off, the steps from one handler's end to the next one's start, ms. */
  readonly handOffs: string[];
}

async function chain(base: Driver): Promise<Run> {
  const marks: Mark[] = [];
  const calls = new Map<string, number>();
  const driver = traced(base, marks, calls);
  const stamp = (what: string) => marks.push({ at: performance.now(), what });
  const name = `chain-${randomUUID().slice(0, 8)}`;
  const job = defineJob({
    name,
    queue: name,
    concurrency: { limit: 1, key: () => 'account-1' },
    async run() {
      stamp('start');
      await new Promise((resolve) => setTimeout(resolve, JOB_MS));
      stamp('end');
    },
  });
  const client = createClient({ driver, jobs: [job] });
  // CHAIN_WORKERS=n: n workers on the one driver, as a fleet sharing the key would be.
  const workers = Array.from({ length: Number(process.env.CHAIN_WORKERS ?? 1) }, () =>
    createWorker({
      driver,
      jobs: [job],
      concurrency: 10,
      visibilityTimeoutMs: 30_000,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    }),
  );
  let done = 0;
  const finished = new Promise<void>((resolve) => {
    for (const worker of workers) {
      worker.on('completed', () => {
        done += 1;
        if (done === JOBS) resolve();
      });
    }
  });
  for (const worker of workers) await worker.start();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await client.enqueueMany(Array.from({ length: JOBS }, () => ({ job, payload: null })));
  await finished;
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  await Promise.all(workers.map((worker) => worker.stop({ graceMs: 1_000 })));
  const handOffs: string[] = [];
  let from: number | undefined;
  let steps: string[] = [];
  for (const mark of marks) {
    if (mark.what === 'end') {
      from = mark.at;
      steps = [];
    } else if (from !== undefined && mark.what === 'start') {
      handOffs.push(`${(mark.at - from).toFixed(1)} ms: ${steps.join(' ')}`);
      from = undefined;
    } else if (from !== undefined) {
      steps.push(`${mark.what}@${(mark.at - from).toFixed(1)}`);
    }
  }
  if (process.env.CHAIN_TRACE === '2') {
    for (const mark of marks) console.log(`    ${(mark.at - t0).toFixed(1)} ${mark.what}`);
  }
  return { ms, cpuMs, calls, handOffs };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 5);
  // Each driver's first chain warms up (JIT, pool connections) and is not counted.
  const warmups = Number(process.env.CHAIN_WARMUPS ?? 1);
  const kinds = (process.argv[3] ?? 'memory,pg,redis,nats').split(',');
  const verbose = process.env.CHAIN_TRACE === '1';
  const drivers = new Map<string, Driver>();
  for (const kind of kinds) drivers.set(kind, await openDriver(kind));
  const times = new Map<string, number[]>(kinds.map((kind) => [kind, []]));
  const claims = new Map<string, number[]>(kinds.map((kind) => [kind, []]));
  const cpus = new Map<string, number[]>(kinds.map((kind) => [kind, []]));
  // Interleaved: round by round, every driver in turn, so the box's noise hits them alike.
  for (let round = -warmups; round < runs; round += 1) {
    for (const kind of kinds) {
      const driver = drivers.get(kind);
      if (driver === undefined) continue;
      const run = await chain(driver);
      const calls = [...run.calls].map(([call, n]) => `${call}=${n}`).join(' ');
      const what = round < 0 ? 'warm-up' : `round ${round + 1}`;
      console.log(
        `${kind} ${what}: ${run.ms.toFixed(0)} ms, cpu ${run.cpuMs.toFixed(1)} ms; ${calls}`,
      );
      if (round < 0) continue;
      times.get(kind)?.push(run.ms);
      cpus.get(kind)?.push(run.cpuMs);
      claims.get(kind)?.push(run.calls.get('claim') ?? 0);
      if (verbose) for (const line of run.handOffs) console.log(`  ${line}`);
    }
  }
  console.log('\ndriver | median s | min–max s | client CPU ms (median) | claims (median)');
  for (const kind of kinds) {
    const all = times.get(kind) ?? [];
    console.log(
      `${kind} | ${(median(all) / 1000).toFixed(3)} | ${(Math.min(...all) / 1000).toFixed(3)}–${(
        Math.max(...all) / 1000
      ).toFixed(
        3,
      )} | ${median(cpus.get(kind) ?? []).toFixed(1)} | ${median(claims.get(kind) ?? [])}`,
    );
  }
  for (const driver of drivers.values()) await driver.close();
}

await main();

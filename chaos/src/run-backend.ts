import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, slotJobId, slotMarkName } from '@berth/core';
import { checkCron } from './check/cron.ts';
import { byJob } from './check/index-events.ts';
import { checkJobs } from './check/jobs.ts';
import { overLimitUnits } from './check/keyed.ts';
import { splitByWindow } from './check/loss-window.ts';
import { checkPartitions } from './check/partition.ts';
import { firstCompletions, recoveryTimes } from './check/recovery.ts';
import type { BackendReport } from './check/report.ts';
import { faultStalls } from './check/stall.ts';
import {
  CRON_SCHEDULE,
  chaosJobs,
  KEYED_QUEUE,
  type KeyedPayload,
  MAIN_QUEUE,
  STEPS_JOB,
} from './child/jobs.ts';
import { type ChildSpec, openDriver, openPgDriver } from './child/spec.ts';
import { purgeCronJobs } from './cron-purge.ts';
import { enqueueSpread, noneEnqueued } from './enqueue.ts';
import { Fleet } from './fleet.ts';
import { type IsolatedSide, producerEnqueues, startIsolatedSide } from './isolated-side.ts';
import { now } from './ledger/events.ts';
import { readLedger } from './ledger/read.ts';
import { noLedger } from './ledger/write.ts';
import { Exclusive } from './nemesis/exclusive.ts';
import { type Partition, partitionIsland } from './nemesis/partition.ts';
import { partitionPrimary } from './nemesis/primary-partition.ts';
import { type Crash, crashServer } from './nemesis/server-crash.ts';
import { HOLDER_QUEUE, RIVAL_QUEUE, stallSlotHolder } from './nemesis/slot-stall.ts';
import { sleepUnless } from './nemesis/timeline.ts';
import { killLeaders, killWorkers, zombies } from './nemesis/workers.ts';
import { createIsland, type Island } from './net/netns.ts';
import type { Profile } from './profiles.ts';
import { type Backend, type ServerOptions, startServer } from './servers/index.ts';
import { ASYNC_COMMIT_WINDOW_MS } from './servers/pg-async-commit.ts';
import { finalRecords, settled } from './settle.ts';
import { variantOf } from './variant.ts';

const SCHEDULERS = 3;
// A keyed unit is long next to a lease renewal's round trip: a worker that wakes from a stall
// runs the unit already due (forgiven by the checker) and must be aborted before the next.
const UNIT_MS = 250;
const HOLDER_POLL_MS = 3_600_000;
/** Backends whose private server can serve an island too (the cluster's servers cannot). */
export const PARTITIONED: readonly Backend[] = ['pg', 'redis', 'nats'];

/** The job ids of every-second slots in `[from, to]`. */
const slotIds = (from: number, to: number): string[] => {
  const ids: string[] = [];
  for (let slot = Math.floor(from / 1_000) * 1_000; slot <= to; slot += 1_000) {
    ids.push(slotJobId(CRON_SCHEDULE, slot));
  }
  return ids;
};

/** The server's URL as the island reaches it: over its end of the veth pair. */
const viaIsland = (url: string, island: Island | undefined): string =>
  island === undefined ? url : url.replace('127.0.0.1', island.host);

/** One backend through one profile: its own server, fleets and nemeses; answers the findings. */
export async function runBackend(
  backend: Backend,
  profile: Profile,
  options: ServerOptions = {},
): Promise<BackendReport> {
  const started = Date.now();
  const ledgerDir = await mkdtemp(join(tmpdir(), `berth-chaos-ledger-${backend}-`));
  const windows = PARTITIONED.includes(backend) ? profile.partitions : [];
  const island: Island | undefined = windows.length > 0 ? await createIsland() : undefined;
  const server = await startServer(backend, {
    ...options,
    ...(island === undefined ? {} : { island }),
  }).catch(async (error: unknown) => {
    await island?.remove();
    throw error;
  });
  const fleets: Fleet[] = [];
  const stopNemeses = new AbortController();
  const driver = openDriver(backend, server.url);
  try {
    // Redis and NATS need no migration: their drivers create what they use on first use.
    if (backend === 'pg' || backend === 'pg-async-commit') {
      const migrator = openPgDriver(server.url);
      await migrator.migrate().finally(() => migrator.close());
    }
    const spec = (role: ChildSpec['role'], queues: string[], concurrency: number): ChildSpec => ({
      role,
      backend,
      url: server.url,
      ledgerDir,
      queues,
      concurrency,
      leaseMs: profile.leaseMs,
    });
    const workers = new Fleet(spec('worker', [MAIN_QUEUE], profile.concurrency));
    const keyedWorkers = new Fleet(spec('worker', [KEYED_QUEUE], 4));
    const schedulers = new Fleet(spec('scheduler', [], 1));
    // One more worker on the main queue, on a host of its own: the one the partitions cut off.
    const islanders = new Fleet(
      { ...spec('worker', [MAIN_QUEUE], profile.concurrency), url: viaIsland(server.url, island) },
      island,
    );
    fleets.push(workers, keyedWorkers, schedulers, islanders);
    await Promise.all([
      ...Array.from({ length: profile.workers }, () => workers.spawn()),
      ...(island === undefined ? [] : [islanders.spawn()]),
      // The holder claims only on a wake, never by a poll: after its stall nothing makes it
      // re-claim its own lapsed job (which would fence the stalled attempt) before its renewal.
      keyedWorkers.spawn({ queues: [HOLDER_QUEUE], pollIntervalMs: HOLDER_POLL_MS }),
      keyedWorkers.spawn({ queues: [KEYED_QUEUE, RIVAL_QUEUE] }),
    ]);
    // A partition cuts the primary off together with a worker and a producer of its own.
    const isolated: IsolatedSide | undefined =
      server.partition === undefined
        ? undefined
        : await startIsolatedSide({
            partition: server.partition,
            spec: spec('worker', [MAIN_QUEUE], profile.concurrency),
            profile,
          });
    fleets.push(...(isolated?.fleets ?? []));

    const jobs = chaosJobs(noLedger);
    const client = createClient({ driver, jobs: jobs.all });
    const main = noneEnqueued();
    const keyed = noneEnqueued();
    const crashes: Crash[] = [];
    const cuts: Crash[] = [];
    const partitions: Partition[] = [];
    const start = Date.now();
    const signal = stopNemeses.signal;
    // The schedule's mark starts at the slot before the run: every lead owes only the slots
    // since, far fewer than CATCH_UP_SLOTS. A lead taken while more are owed enqueues only the
    // latest of them, by design (core README, catchUp), so a first start that owed the whole
    // catch-up lost its oldest slots to any lead change before it caught up (a slow store).
    const cronFrom = Math.floor(now() / 1_000) * 1_000;
    await driver.marks.advance(slotMarkName(CRON_SCHEDULE), cronFrom - 1_000);
    const cronStop = new AbortController();
    const cronCompleted = new Set<string>();
    const cron = (async () => {
      await Promise.all(Array.from({ length: SCHEDULERS }, () => schedulers.spawn()));
      const purging = purgeCronJobs(driver, cronCompleted, cronStop.signal);
      await Promise.all([
        killLeaders({ fleet: schedulers, start, atMs: profile.leaderKillAtMs, signal }),
        sleepUnless(start + profile.cronMs - Date.now(), signal),
      ]);
      await schedulers.close();
      cronStop.abort();
      await purging;
    })();
    const keyedPayloads: KeyedPayload[] = Array.from({ length: profile.keyed.jobs }, (_, i) => ({
      key: `k${i % profile.keyed.keys}`,
      units: profile.keyed.units,
      unitMs: UNIT_MS,
    }));
    const stallMs = Math.round(profile.leaseMs * 2.5);
    const exclusive = new Exclusive();
    const slotStallTries: string[] = [];
    // A cut and a crash never overlap (a cut while the server is down shows nothing); the cut
    // may overlap a slot stall, which only the crash must not.
    const serverLock = new Exclusive();
    await Promise.all([
      enqueueSpread({
        client,
        job: jobs.steps,
        payloads: Array.from({ length: profile.jobs }, (_, n) => ({ n })),
        spreadMs: profile.enqueueMs,
        into: main,
      }),
      enqueueSpread({
        client,
        job: jobs.keyed,
        payloads: keyedPayloads,
        spreadMs: profile.enqueueMs,
        into: keyed,
      }),
      killWorkers({
        fleet: workers,
        start,
        everyMs: profile.killEveryMs,
        untilMs: profile.nemesisMs,
        signal,
      }),
      zombies({
        fleet: workers,
        start,
        atMs: profile.zombieAtMs,
        stallMs,
        signal,
        choose: (alive) => alive.find((member) => member.holding.has(STEPS_JOB)),
      }),
      stallSlotHolder({
        fleet: keyedWorkers,
        client,
        job: jobs.keyed,
        unitMs: UNIT_MS,
        into: keyed,
        start,
        atMs: profile.slotStallAtMs,
        leaseMs: profile.leaseMs,
        stallMs,
        signal,
        exclusive,
        tries: slotStallTries,
      }),
      server.partition === undefined
        ? crashServer({
            server,
            start,
            atMs: profile.crashAtMs,
            downMs: profile.downMs,
            signal,
            crashes,
            exclusive: { run: (fn) => exclusive.run(() => serverLock.run(fn)) },
          })
        : partitionPrimary({
            partition: server.partition,
            start,
            atMs: profile.primaryPartition.atMs,
            cutMs: profile.primaryPartition.cutMs,
            signal,
            cuts,
            exclusive,
          }),
      island === undefined
        ? undefined
        : partitionIsland({
            fleet: islanders,
            island,
            port: Number(new URL(server.url).port),
            start,
            windows,
            signal,
            partitions,
            exclusive: serverLock,
            takeOver: {
              longerThanMs: 2 * profile.leaseMs,
              // As long as the run gives every job to complete once the nemeses end.
              capMs: profile.settleMs,
              read: () => readLedger(ledgerDir),
            },
          }),
      cron,
      isolated?.produced(),
    ]);
    const cronTo = now();
    // The holder never polls: a job of its queue that became due again (handed back while the
    // key was busy) waits for a claim. A polling worker on that queue finishes what is left.
    await keyedWorkers.spawn({ queues: [HOLDER_QUEUE] });
    await settled(driver, [MAIN_QUEUE, KEYED_QUEUE, HOLDER_QUEUE, RIVAL_QUEUE], profile.settleMs);
    await workers.close();
    await keyedWorkers.close();
    await islanders.close();
    for (const fleet of isolated?.fleets ?? []) await fleet.close();

    // Beside the ledger, for reading a kept one (BERTH_CHAOS_KEEP_LEDGER=1).
    await writeFile(
      join(ledgerDir, 'nemeses.json'),
      JSON.stringify({
        crashes,
        partitions,
        disruptions: fleets.flatMap((fleet) => fleet.disruptions),
      }),
    );
    const events = await readLedger(ledgerDir);
    const produced = producerEnqueues(events);
    for (const [id, at] of produced.acknowledged) {
      main.acknowledged.add(id);
      main.ackedAt.set(id, at);
    }
    const grouped = byJob(events);
    const records = await finalRecords(driver, [...main.acknowledged, ...keyed.acknowledged]);
    for (const [id, record] of await finalRecords(driver, slotIds(cronFrom, cronTo))) {
      if (record?.state === 'completed') cronCompleted.add(id);
    }
    const allJobFindings = checkJobs({ acknowledged: main.acknowledged, records, events: grouped });
    // Losses inside a documented window are findings, not failures: counted apart.
    const windowed =
      backend === 'pg-async-commit'
        ? splitByWindow({
            findings: allJobFindings,
            enqueuedAt: main.ackedAt,
            crashes,
            windowMs: ASYNC_COMMIT_WINDOW_MS,
          })
        : undefined;
    const jobFindings = windowed?.outside ?? allJobFindings;
    const keyedFindings = checkJobs({ acknowledged: keyed.acknowledged, records, events: grouped });
    const disruptions = workers.disruptions;
    const isolatedPids = isolated?.pids() ?? new Set<number>();
    return {
      backend,
      ...variantOf(backend, options),
      profile: profile.name,
      durationMs: Date.now() - started,
      enqueued: main.ids.length + produced.tried.length,
      acknowledged: main.acknowledged.size,
      jobs: jobFindings,
      keyed: { ...keyedFindings, overLimitUnits: overLimitUnits(events, profile.leaseMs) },
      cron: checkCron(events, { from: cronFrom, to: cronTo }, cronCompleted),
      workerKills: disruptions.filter((d) => d.kind === 'kill').length,
      zombies: disruptions.filter((d) => d.kind === 'stall').length,
      slotStalls: keyedWorkers.disruptions.length,
      slotStallTries,
      leaderKills: schedulers.disruptions.length,
      killRecoveryMs: recoveryTimes(
        disruptions.filter((d) => d.kind === 'kill'),
        events,
      ),
      crashes: firstCompletions(crashes, events),
      partitions: checkPartitions(partitions, events),
      ...(windowed === undefined ? {} : { lossWindow: windowed.inside }),
      cuts: cuts.map((cut) => cut.up - cut.down),
      lostCutOff: jobFindings.lost.filter((id) => produced.acknowledged.has(id)).length,
      faultStallsMs: faultStalls([...crashes, ...cuts], events, isolatedPids),
    };
  } finally {
    stopNemeses.abort();
    for (const fleet of fleets) await fleet.close(1_000).catch(() => {});
    await driver.close().catch(() => {});
    await server.stop();
    await island?.remove();
    if (process.env.BERTH_CHAOS_KEEP_LEDGER === '1')
      console.log(`chaos: ledger kept in ${ledgerDir}`);
    else await rm(ledgerDir, { recursive: true, force: true });
  }
}

import type { Clock, DriverHooks } from '@berth/core/driver';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { openBucket, watchedBucket } from './buckets.js';
import type { NatsContext } from './context.js';
import { lifecycleState } from './lifecycle-announce.js';
import { LifecycleRepair, verifiedUpTo } from './lifecycle-repair.js';
import { openLifecycleStream } from './lifecycle-stream.js';
import { failingLostAnswers } from './lost-answers.js';
import { Mirror } from './mirror.js';
import type { ServerCredentials } from './server-credentials.js';
import { screenReplicas } from './servers.js';
import { SettleNotices } from './settle-notices.js';
import type { Subjects } from './subjects.js';
import { Wake } from './wake.js';

export interface ConnectSettings {
  readonly servers: string | readonly string[] | undefined;
  /** Taken out of the servers' URLs (nats.js would ignore them there). */
  readonly credentials?: ServerCredentials | undefined;
  readonly connection: NatsConnection | undefined;
  readonly subjects: Subjects;
  readonly clock: Clock;
  readonly hooks: DriverHooks;
  readonly replicas: number;
  readonly timeoutMs: number;
  readonly markerGraceMs: number;
  /** The lifecycle events the stream keeps (`lifecycleRetention`). */
  readonly lifecycleRetention: number;
}

/** Headroom under the server's message cap for a part's headers. */
const PART_HEADROOM = 4_096;

/**
 * Opens what the driver needs, in order: the connection (unless the app gave one), the two
 * buckets (created on first use with file storage and the configured replicas; a bucket that
 * exists is used as it is; replicas above 1 only on a server that replicates conditional writes
 * safely, see `screenReplicas`), the watch, the wake subject and the settle notices. After a
 * reconnect the watch resumes where it stopped and wake listeners look again (settle notices
 * published meanwhile are lost: result waits find those settles at their poll); a drop fails the
 * requests in flight at once (`failingLostAnswers`), as does a new leader of either stream.
 */
export async function openContext(settings: ConnectSettings): Promise<NatsContext> {
  const given =
    settings.connection ??
    (await connect({
      ...(settings.servers === undefined ? {} : { servers: [...[settings.servers].flat()] }),
      ...settings.credentials,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      // Each request would otherwise capture a stack trace up front: about an eighth of the CPU.
      noAsyncTraces: true,
      timeout: settings.timeoutMs,
    }));
  const losing = failingLostAnswers(given, [
    settings.subjects.jobsStream,
    settings.subjects.auxStream,
    settings.subjects.lifecycleStream,
  ]);
  const { nc } = losing;
  try {
    const version = nc.info?.version;
    screenReplicas({ version, replicas: settings.replicas });
    const js = jetstream(nc, { timeout: settings.timeoutMs });
    const jsm = await jetstreamManager(nc, { timeout: settings.timeoutMs });
    const { subjects, replicas, timeoutMs } = settings;
    const buckets = { replicas, timeoutMs, version };
    const [jobs, aux, lifecycle] = await Promise.all([
      openBucket(nc, js, { bucket: subjects.jobsBucket, stream: subjects.jobsStream }, buckets),
      openBucket(nc, js, { bucket: subjects.auxBucket, stream: subjects.auxStream }, buckets),
      openLifecycleStream(nc, js, jsm, subjects, {
        replicas,
        timeoutMs,
        retention: settings.lifecycleRetention,
      }),
    ]);
    const events = lifecycleState(lifecycle.stream, lifecycle.last);
    // Read before the first replay, so the index leaves out the rows the repair pass verified.
    events.swept = await verifiedUpTo(aux, subjects.lifecycleRepair);
    const mirror = new Mirror(
      await watchedBucket(nc, subjects.jobsBucket, timeoutMs),
      jsm,
      settings.subjects.jobsStream,
      settings.timeoutMs,
      settings.markerGraceMs,
      () => events.swept,
    );
    await mirror.start();
    const wake = new Wake(nc, settings.subjects.wake);
    const statuses = nc.status();
    void (async () => {
      for await (const status of statuses) {
        if (status.type !== 'reconnect') continue;
        mirror.resume().catch(() => {});
        wake.wakeAll();
      }
    })();
    const context: NatsContext = {
      subjects: settings.subjects,
      clock: settings.clock,
      hooks: settings.hooks,
      nc,
      jsm,
      jobs,
      aux,
      get index() {
        return mirror.index;
      },
      mirror,
      wake,
      settles: new SettleNotices(nc, settings.subjects.settled),
      lifecycle: events,
      get repair() {
        return repair;
      },
      markerGraceMs: settings.markerGraceMs,
      stopStatus: () => {
        (statuses as { stop?: () => void }).stop?.();
        losing.stop();
      },
      partBytes: Math.max(
        1_024,
        Math.min(512 * 1_024, nc.info?.max_payload ?? 1_048_576) - PART_HEADROOM,
      ),
    };
    const repair = new LifecycleRepair(context);
    repair.start();
    void nc.closed().then(() => repair.stop());
    return context;
  } catch (error) {
    losing.stop();
    if (settings.connection === undefined) await given.close().catch(() => {});
    throw error;
  }
}

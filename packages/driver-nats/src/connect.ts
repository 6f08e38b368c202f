import type { Clock, DriverHooks } from '@berth/core';
import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  StorageType,
} from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { NatsContext } from './context.js';
import { Mirror } from './mirror.js';
import { screenReplicas } from './servers.js';
import type { Subjects } from './subjects.js';
import { Wake } from './wake.js';

export interface ConnectSettings {
  readonly servers: string | readonly string[] | undefined;
  readonly connection: NatsConnection | undefined;
  readonly subjects: Subjects;
  readonly clock: Clock;
  readonly hooks: DriverHooks;
  readonly replicas: number;
  readonly timeoutMs: number;
  readonly markerGraceMs: number;
}

/** Headroom under the server's message cap for a part's headers. */
const PART_HEADROOM = 4_096;

/** The replicas of `stream` if it exists. */
async function replicasOf(jsm: JetStreamManager, stream: string): Promise<number | undefined> {
  try {
    return (await jsm.streams.info(stream)).config.num_replicas;
  } catch (error) {
    if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) {
      return undefined;
    }
    throw error;
  }
}

/**
 * Opens one bucket, creating it when missing. A replicated bucket (made here or by someone else)
 * is read without direct gets: a direct get is answered by any replica, which may lag or (on
 * 2.9.10, after a restart) lack the value; a plain get is answered by the stream leader alone.
 */
async function openBucket(
  kvm: Kvm,
  jsm: JetStreamManager,
  names: { readonly bucket: string; readonly stream: string },
  settings: ConnectSettings,
  version: string | undefined,
): Promise<KV> {
  const existing = await replicasOf(jsm, names.stream);
  screenReplicas({
    version,
    replicas: settings.replicas,
    existing: existing === undefined ? undefined : { stream: names.stream, replicas: existing },
  });
  return kvm.create(names.bucket, {
    history: 1,
    storage: StorageType.File,
    replicas: settings.replicas,
    allow_direct: (existing ?? settings.replicas) === 1,
  });
}

/**
 * Opens what the driver needs, in order: the connection (unless the app gave one), the two
 * buckets (created on first use with file storage and the configured replicas; a bucket that
 * exists is used as it is; replicas above 1 only on a server that replicates conditional writes
 * safely, see `screenReplicas`), the watch, and the wake subject. After a reconnect the watch resumes
 * where it stopped and wake listeners look again.
 */
export async function openContext(settings: ConnectSettings): Promise<NatsContext> {
  const nc =
    settings.connection ??
    (await connect({
      ...(settings.servers === undefined ? {} : { servers: [...[settings.servers].flat()] }),
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      // Each request would otherwise capture a stack trace up front: about an eighth of the CPU.
      noAsyncTraces: true,
      timeout: settings.timeoutMs,
    }));
  try {
    const version = nc.info?.version;
    screenReplicas({ version, replicas: settings.replicas });
    const js = jetstream(nc, { timeout: settings.timeoutMs });
    const jsm = await jetstreamManager(nc, { timeout: settings.timeoutMs });
    const kvm = new Kvm(js);
    const { subjects } = settings;
    const [jobs, aux] = await Promise.all([
      openBucket(
        kvm,
        jsm,
        { bucket: subjects.jobsBucket, stream: subjects.jobsStream },
        settings,
        version,
      ),
      openBucket(
        kvm,
        jsm,
        { bucket: subjects.auxBucket, stream: subjects.auxStream },
        settings,
        version,
      ),
    ]);
    const mirror = new Mirror(
      jobs,
      jsm,
      settings.subjects.jobsStream,
      settings.timeoutMs,
      settings.markerGraceMs,
    );
    await mirror.start();
    const wake = new Wake(nc, settings.subjects.wake);
    const statuses = nc.status();
    void (async () => {
      let away = Date.now();
      for await (const status of statuses) {
        if (status.type === 'disconnect') away = Date.now();
        if (status.type !== 'reconnect') continue;
        mirror.resume(Date.now() - away).catch(() => {});
        wake.wakeAll();
      }
    })();
    return {
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
      markerGraceMs: settings.markerGraceMs,
      stopStatus: () => (statuses as { stop?: () => void }).stop?.(),
      partBytes: Math.max(
        1_024,
        Math.min(512 * 1_024, nc.info?.max_payload ?? 1_048_576) - PART_HEADROOM,
      ),
    };
  } catch (error) {
    if (settings.connection === undefined) await nc.close().catch(() => {});
    throw error;
  }
}

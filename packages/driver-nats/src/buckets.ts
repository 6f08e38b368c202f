import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  StorageType,
} from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { type NatsConnection, TimeoutError } from '@nats-io/transport-node';
import { screenReplicas } from './servers.js';

export interface BucketSettings {
  /** Replicas of a bucket the driver creates. */
  readonly replicas: number;
  readonly timeoutMs: number;
  /** The connected server's version (`nats-server --version` without the v). */
  readonly version: string | undefined;
}

/** The longest one try to create a bucket waits for its answer before it asks again. */
const CREATE_TRY_MS = 2_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const notFound = (error: unknown) =>
  error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound;

/** JetStream's "subjects overlap with an existing stream". */
const SUBJECTS_OVERLAP = 10_065;

/**
 * What a server answers, for a moment, to processes creating one stream at the same time: the
 * requests of all but one may go unanswered or be refused as overlapping the stream being made
 * (one server, 2.9.10), and on a cluster the stream may read as missing, or as having no leader,
 * until its group elects one. A stream of someone else's that really overlaps is still refused,
 * once `timeoutMs` has passed.
 */
const settling = (error: unknown) =>
  error instanceof TimeoutError ||
  notFound(error) ||
  (error instanceof JetStreamApiError && error.code === SUBJECTS_OVERLAP);

/** The replicas of `stream` if it exists. */
async function replicasOf(jsm: JetStreamManager, stream: string): Promise<number | undefined> {
  try {
    return (await jsm.streams.info(stream)).config.num_replicas;
  } catch (error) {
    if (notFound(error)) return undefined;
    throw error;
  }
}

/**
 * Makes the bucket if it is missing and waits until its stream has a leader; until then every
 * write finds no responder and every read (answered by the leader alone) times out. A try that
 * the cluster leaves unanswered while it settles is made again until `timeoutMs` has passed
 * (creating a bucket that exists with the same settings changes nothing).
 */
async function ready(
  nc: NatsConnection,
  jsm: JetStreamManager,
  names: { readonly bucket: string; readonly stream: string },
  options: { readonly replicas: number; readonly allow_direct: boolean },
  timeoutMs: number,
): Promise<void> {
  const creator = new Kvm(jetstream(nc, { timeout: Math.min(timeoutMs, CREATE_TRY_MS) }));
  const deadline = Date.now() + timeoutMs;
  for (let wait = 25; ; wait = Math.min(2 * wait, 250)) {
    try {
      await creator.create(names.bucket, { ...options, history: 1, storage: StorageType.File });
      const { cluster } = await jsm.streams.info(names.stream);
      if (cluster === undefined || (cluster.leader ?? '') !== '') return;
      if (Date.now() >= deadline) {
        throw new Error(`the stream ${names.stream} elected no leader within ${timeoutMs} ms`);
      }
    } catch (error) {
      if (!settling(error) || Date.now() >= deadline) throw error;
    }
    await pause(wait);
  }
}

/**
 * Opens one bucket, creating it when missing (file storage, one value per key, the configured
 * replicas; a bucket that exists is used as it is). A replicated bucket, made here or by someone
 * else, is read without direct gets: a direct get is answered by any replica, which may lag or
 * (on 2.9.10, after a restart) lack the value; a plain get is answered by the stream leader.
 */
export async function openBucket(
  nc: NatsConnection,
  js: JetStreamClient,
  jsm: JetStreamManager,
  names: { readonly bucket: string; readonly stream: string },
  settings: BucketSettings,
): Promise<KV> {
  const existing = await replicasOf(jsm, names.stream);
  screenReplicas({
    version: settings.version,
    replicas: settings.replicas,
    existing: existing === undefined ? undefined : { stream: names.stream, replicas: existing },
  });
  const allow_direct = (existing ?? settings.replicas) === 1;
  await ready(nc, jsm, names, { replicas: settings.replicas, allow_direct }, settings.timeoutMs);
  return new Kvm(js).open(names.bucket, { allow_direct });
}

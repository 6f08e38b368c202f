import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  StorageType,
} from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { type NatsConnection, TimeoutError } from '@nats-io/transport-node';
import { screenReplicas } from './servers.js';
import { TRY_MS } from './tries.js';

export interface BucketSettings {
  /** Replicas of a bucket the driver creates. */
  readonly replicas: number;
  readonly timeoutMs: number;
  /** The connected server's version (`nats-server --version` without the v). */
  readonly version: string | undefined;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const notFound = (error: unknown) =>
  error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound;

/** JetStream's "subjects overlap with an existing stream". */
const SUBJECTS_OVERLAP = 10_065;
/** JetStream's "error creating store for stream" (JSStreamStoreFailedF). */
const STORE_FAILED = 10_077;
/** JetStream's stream create error carrying the store's own text (JSStreamCreateErrF, "{err}"). */
const CREATE_FAILED = 10_049;

/** A create refused because the server could not make the stream's store (either code). */
const storeFailed = (error: JetStreamApiError): boolean =>
  error.code === STORE_FAILED ||
  (error.code === CREATE_FAILED && /creating store/i.test(error.message));

/**
 * What a server answers, for a moment, to processes creating one stream at the same time: the
 * requests of all but one may go unanswered or be refused as overlapping the stream being made
 * (one server, 2.9.10), and on a cluster the stream may read as missing, or as having no leader,
 * until its group elects one. A stream info request may go unanswered too (nats-server 2.10's
 * jsStreamInfoRequest): the meta leader stops answering "not found" once it holds the new
 * stream's assignment, and until the stream's preferred peer holds it as well no server answers
 * at all. A create may be refused as a store the server could not make (2.9.10: 10077, or
 * 10049 "error creating store for stream"): another process removed the account's last stream,
 * and with it the directory every store sits in. A stream of someone else's that really overlaps, or a store that really cannot be
 * made (a full disk), is still refused, once `timeoutMs` has passed.
 */
export const settling = (error: unknown) =>
  error instanceof TimeoutError ||
  notFound(error) ||
  (error instanceof JetStreamApiError && (error.code === SUBJECTS_OVERLAP || storeFailed(error)));

/**
 * Makes `attempt` until it answers a value (undefined: not yet), pausing 25 ms, doubling to
 * 250 ms, between tries. An error `again` accepts is tried again, and a try answering undefined
 * is made again, until `timeoutMs` has passed; then the error is thrown, or `gaveUp()`.
 */
export async function retried<T>(
  timeoutMs: number,
  again: (error: unknown) => boolean,
  attempt: () => Promise<T | undefined>,
  gaveUp: () => Error,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 25; ; wait = Math.min(2 * wait, 250)) {
    try {
      const answer = await attempt();
      if (answer !== undefined) return answer;
      if (Date.now() >= deadline) throw gaveUp();
    } catch (error) {
      if (!again(error) || Date.now() >= deadline) throw error;
    }
    await pause(wait);
  }
}

/** The replicas of `stream` if it exists, asked again after unanswered tries until `timeoutMs`. */
async function replicasOf(
  jsm: JetStreamManager,
  stream: string,
  timeoutMs: number,
): Promise<number | undefined> {
  const { replicas } = await retried(
    timeoutMs,
    (error) => error instanceof TimeoutError,
    async () => {
      try {
        return { replicas: (await jsm.streams.info(stream)).config.num_replicas };
      } catch (error) {
        if (notFound(error)) return { replicas: undefined };
        throw error;
      }
    },
    () => new Error(`the stream ${stream} was not described within ${timeoutMs} ms`),
  );
  return replicas;
}

/**
 * Makes the bucket if it is missing and waits until its stream has a leader; until then every
 * write finds no responder and every read (answered by the leader alone) times out. A try that
 * the cluster leaves unanswered while it settles is made again until `timeoutMs` has passed
 * (creating a bucket that exists with the same settings changes nothing). `jsm` asks with
 * TRY_MS tries.
 */
async function ready(
  nc: NatsConnection,
  jsm: JetStreamManager,
  names: { readonly bucket: string; readonly stream: string },
  options: { readonly replicas: number; readonly allow_direct: boolean },
  timeoutMs: number,
): Promise<void> {
  const creator = new Kvm(jetstream(nc, { timeout: Math.min(timeoutMs, TRY_MS) }));
  await retried(
    timeoutMs,
    settling,
    async () => {
      await creator.create(names.bucket, { ...options, history: 1, storage: StorageType.File });
      const { cluster } = await jsm.streams.info(names.stream);
      return cluster === undefined || (cluster.leader ?? '') !== '' ? true : undefined;
    },
    () => new Error(`the stream ${names.stream} elected no leader within ${timeoutMs} ms`),
  );
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
  names: { readonly bucket: string; readonly stream: string },
  settings: BucketSettings,
): Promise<KV> {
  // Stream info asked with short tries: one left unanswered costs TRY_MS, not all of timeoutMs.
  const asker = await jetstreamManager(nc, {
    timeout: Math.min(settings.timeoutMs, TRY_MS),
    checkAPI: false,
  });
  const existing = await replicasOf(asker, names.stream, settings.timeoutMs);
  screenReplicas({
    version: settings.version,
    replicas: settings.replicas,
    existing: existing === undefined ? undefined : { stream: names.stream, replicas: existing },
  });
  const allow_direct = (existing ?? settings.replicas) === 1;
  await ready(nc, asker, names, { replicas: settings.replicas, allow_direct }, settings.timeoutMs);
  return new Kvm(js).open(names.bucket, { allow_direct });
}

/**
 * The jobs bucket as the mirror watches it: the watch's consumer create is asked with TRY_MS
 * tries. After a reconnect the watch is made again, and a create sent while the cluster replaces
 * its meta leader goes unanswered; waited out for all of `timeoutMs`, it left every call waiting
 * on the watch that long without progress, and they failed.
 */
export function watchedBucket(nc: NatsConnection, bucket: string, timeoutMs: number): Promise<KV> {
  const js = jetstream(nc, { timeout: Math.min(timeoutMs, TRY_MS), checkAPI: false });
  return new Kvm(js).open(bucket);
}

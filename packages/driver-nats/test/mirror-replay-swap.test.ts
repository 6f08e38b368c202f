import type { JetStreamManager } from '@nats-io/jetstream';
import type { KV, KvWatchEntry } from '@nats-io/kv';
import { afterEach, expect, it, vi } from 'vitest';
import { Mirror } from '../src/mirror.js';
import { encodeJson, type StoredJob } from '../src/record.js';

// Seen once in ~32 runs of the cluster kit's restart case: the first get after a rolling restart
// answered "no such job" for a job every node held. The read's full sync verified the index a
// replay had just built and returned; a second full sync (the heartbeat's) released by the same
// watch entry then judged the watch stale (its last confirmation was that read's start, seconds
// ago) and began another replay, which put an empty index in place before the read's
// continuation looked its job up. Scripted here with a fake bucket, stream and clock.

const GRACE_MS = 60_000;
const ID = '0b9c3c4e-6f1d-4d5e-9a43-2f6f1c0d7a11';

const job: StoredJob = {
  id: ID,
  runId: '5a3ad4f4-4e0f-4c8e-8f39-7d3a4c2b1e90',
  name: 'mail',
  queue: 'q1',
  payload: { n: 1 },
  state: 'ready',
  priority: 0,
  attempts: 0,
  maxAttempts: 3,
  runAt: 0,
  createdAt: 0,
  updatedAt: 0,
  claim: 0,
};

const entry = (revision: number): KvWatchEntry =>
  ({
    key: `j.${ID}`,
    revision,
    operation: 'PUT',
    value: encodeJson({ job }),
    created: new Date(0),
  }) as unknown as KvWatchEntry;

/** One watch: entries are handed to it by the test; `stop` ends its iteration. */
class FakeWatch implements AsyncIterable<KvWatchEntry> {
  private readonly queued: KvWatchEntry[] = [];
  private wake: (() => void) | undefined;
  private stopped = false;

  push(item: KvWatchEntry): void {
    this.queued.push(item);
    this.wake?.();
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<KvWatchEntry> {
    for (;;) {
      const next = this.queued.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.stopped) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

it('a replay begun by one full sync leaves the index another full sync just verified to the read that waited on it', async () => {
  let now = 1_000;
  vi.spyOn(Date, 'now').mockImplementation(() => now);
  const watches: FakeWatch[] = [];
  const jobs = {
    watch: async () => {
      const watch = new FakeWatch();
      watches.push(watch);
      return watch;
    },
  } as unknown as KV;
  const jsm = {
    streams: { info: async () => ({ state: { messages: 1, last_seq: 1 } }) },
  } as unknown as JetStreamManager;
  const mirror = new Mirror(jobs, jsm, 'KV_test_jobs', 5_000, GRACE_MS);
  const starting = mirror.start();
  await vi.waitFor(() => expect(watches).toHaveLength(1));
  watches[0]?.push(entry(1));
  await starting;
  expect(mirror.index.row(ID)).toBeDefined();
  try {
    // The watch stood still past half the grace: the read's sync replays the bucket.
    now += GRACE_MS;
    const read = mirror.syncFull().then(() => mirror.index.row(ID));
    await vi.waitFor(() => expect(watches).toHaveLength(2));
    // The replay's watch is slow to deliver: the heartbeat's sync starts meanwhile.
    now += GRACE_MS;
    const beat = mirror.syncFull();
    beat.catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    watches[1]?.push(entry(1));
    expect(await read).toBeDefined();
  } finally {
    mirror.stop();
  }
});

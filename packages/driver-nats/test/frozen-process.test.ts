import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { cutProxy, startPrivateServer } from '@berth/test-servers';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';

const GRACE_MS = 1_000;
const PREFIX = 'frozen';

/** A second process reading through its own driver; `ask` answers what it read. */
function reader(url: string) {
  const child: ChildProcess = fork(
    fileURLToPath(new URL('./fixtures/frozen-reader.ts', import.meta.url)),
    {
      execArgv: [
        '--conditions=@berth/source',
        '--import',
        createRequire(import.meta.url).resolve('tsx/esm'),
      ],
      env: {
        ...process.env,
        FROZEN_NATS_URL: url,
        FROZEN_PREFIX: PREFIX,
        FROZEN_GRACE_MS: String(GRACE_MS),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  let asked = 0;
  const ready = new Promise<void>((resolve) => {
    child.once('message', () => resolve());
  });
  const ask = (call: 'list' | 'get', jobId?: string): Promise<unknown> => {
    asked += 1;
    const id = asked;
    return new Promise((resolve, reject) => {
      const answered = (message: { id?: number; value?: unknown; error?: string }) => {
        if (message.id !== id) return;
        child.off('message', answered);
        if (message.error === undefined) resolve(message.value);
        else reject(new Error(message.error));
      };
      child.on('message', answered);
      child.send({ id, call, jobId });
    });
  };
  return { child, ready, ask };
}

describe('nats driver in a process frozen past half its marker grace', () => {
  it('replays the bucket when it resumes, so no row purged meanwhile comes back', async () => {
    const server = await startPrivateServer('nats');
    // The reader's connection goes through a proxy, so the server can drop it while it is frozen.
    const proxy = await cutProxy(server.port);
    const writer = createNatsDriver({
      servers: server.url(),
      prefix: PREFIX,
      deleteMarkerGraceMs: GRACE_MS,
    });
    const other = reader(server.url(proxy.port));
    try {
      const gone = await writer.enqueueMany([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
      for (const job of gone) await writer.cancel(job.id);
      await other.ready;
      expect(await other.ask('list')).toHaveLength(3);

      // Frozen (SIGSTOP) long enough for the server to drop its connection: the proxy closes
      // the server's side at once, as the server's own ping check would after a while.
      other.child.kill('SIGSTOP');
      proxy.freeze();
      expect(await writer.purge({ states: ['cancelled'], olderThan: Date.now() + 1 })).toBe(3);
      await sleep(GRACE_MS + 250);
      const kept = await writer.enqueue({ name: 'kept' });
      await writer.purge({ states: ['cancelled'], olderThan: Date.now() + 1 });
      // The purged rows' delete markers are gone from the stream: nothing tells of them now.
      const admin = await connect({ servers: server.url() });
      try {
        const jsm = await jetstreamManager(admin);
        for (const job of gone) {
          const last = await jsm.streams
            .getMessage(`KV_${PREFIX}_jobs`, { last_by_subj: `$KV.${PREFIX}_jobs.j.${job.id}` })
            .catch(() => null);
          expect(last).toBeNull();
        }
      } finally {
        await admin.close();
      }

      // It wakes up (about a quarter of the grace after its connection dropped, it reconnects).
      const thawed = proxy.thaw();
      other.child.kill('SIGCONT');
      await thawed;
      expect(await other.ask('list')).toEqual([kept.id]);
      for (const job of gone) expect(await other.ask('get', job.id)).toBeNull();
    } finally {
      other.child.kill('SIGCONT');
      other.child.disconnect();
      await writer.close();
      await proxy.close();
      await server.dispose();
    }
  }, 60_000);
});

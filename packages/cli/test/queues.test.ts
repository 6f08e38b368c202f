import { describe, expect, it } from 'vitest';
import { berth, berthJson, errorDoc } from './support/berth.js';
import { natsTarget, pgTarget, redisTarget, type Target } from './support/targets.js';

interface Listed {
  readonly queues: readonly { queue: string; paused: boolean; pausedAt?: number; ready: number }[];
}

describe('berth queues', () => {
  for (const [kind, open] of [
    ['PostgreSQL', () => pgTarget()],
    ['Redis', () => redisTarget()],
    ['NATS', () => natsTarget()],
  ] as const) {
    it(`pause stops claims of the queue, answers the same when repeated, ls shows it, resume lifts it (${kind})`, async () => {
      const target: Target = await open();
      try {
        const { id } = await target.driver.enqueue({ name: 'email.send', queue: 'emails' });
        const first = await berthJson<{ pause: { pausedAt: number } }>([
          'queues',
          'pause',
          'emails',
          ...target.flags,
        ]);
        expect(first.doc.pause).toMatchObject({ queue: 'emails', paused: true });
        const again = await berthJson(['queues', 'pause', 'emails', ...target.flags]);
        expect(again.doc).toEqual(first.doc);
        const claim = { queues: ['emails'], workerId: 'cli-test', visibilityTimeoutMs: 60_000 };
        expect(await target.driver.claim(claim)).toEqual([]);

        const listed = await berthJson<Listed>(['queues', 'ls', ...target.flags]);
        expect(listed.doc.queues).toEqual([
          {
            queue: 'emails',
            paused: true,
            pausedAt: first.doc.pause.pausedAt,
            ready: 1,
            delayed: 0,
            running: 0,
          },
        ]);
        const text = await berth(['queues', 'ls', ...target.flags]);
        expect(text.stdout).toMatch(/^emails +paused +1 +0 +0 +\d{4}-/m);

        const resumed = await berth(['queues', 'resume', 'emails', ...target.flags]);
        expect(resumed.code).toBe(0);
        expect(resumed.stdout).toBe('resumed emails: workers claim from it again\n');
        expect((await target.driver.claim(claim)).map((job) => job.id)).toEqual([id]);
        const after = await berthJson<Listed>(['queues', 'ls', ...target.flags]);
        expect(after.doc.queues.map((line) => line.paused)).toEqual([false]);
      } finally {
        await target.dispose();
      }
    });
  }

  it('a queue name the contract refuses exits 1 with JOB_INVALID naming queue, and pauses nothing', async () => {
    const target = await redisTarget();
    try {
      const ran = await berth(['queues', 'pause', '', ...target.flags, '--json']);
      expect(ran.code).toBe(1);
      expect(errorDoc(ran)).toMatchObject({ code: 'JOB_INVALID', meta: { field: 'queue' } });
      expect(await target.driver.pauses.list()).toEqual([]);
    } finally {
      await target.dispose();
    }
  });

  it('ls with nothing queued or paused says so', async () => {
    const target = await redisTarget();
    try {
      expect((await berth(['queues', 'ls', ...target.flags])).stdout).toBe(
        'no queues: none holds a job or is paused\n',
      );
      expect((await berthJson(['queues', 'ls', ...target.flags])).doc).toEqual({ queues: [] });
    } finally {
      await target.dispose();
    }
  });
});

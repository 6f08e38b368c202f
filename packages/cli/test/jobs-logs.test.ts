import type { Driver } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { berth, berthJson } from './support/berth.js';
import { natsTarget, redisTarget } from './support/targets.js';

/** A running job of `tenantId` with `messages` logged by its attempt. */
async function loggedJob(driver: Driver, tenantId: string, messages: readonly string[]) {
  const queue = `logs-${tenantId}`;
  const { id } = await driver.enqueue({ name: 'report.build', queue, tenantId });
  const [job] = await driver.claim({
    queues: [queue],
    workerId: 'cli-logs',
    visibilityTimeoutMs: 60_000,
  });
  if (job === undefined) throw new Error('nothing claimed');
  const at = driver.clock.now();
  const fence = { jobId: id, workerId: 'cli-logs', claim: job.claim };
  await driver.logs.append(fence, {
    from: 0,
    lines: messages.map((message, index) => ({
      at: at + index,
      level: index === 0 ? ('warn' as const) : ('info' as const),
      message,
    })),
  });
  return id;
}

for (const [kind, open] of [
  ['Redis', () => redisTarget()],
  ['NATS', () => natsTarget()],
] as const) {
  describe(`berth jobs show / jobs logs (${kind})`, () => {
    it('show --json holds the lines; logs --after pages; another tenant’s job is JOB_NOT_FOUND (exit 1)', async () => {
      const target = await open();
      try {
        const id = await loggedJob(target.driver, 'acme', ['first', 'second', 'third']);
        const shown = await berthJson<{
          logs: { lines: { seq: number; level: string; message: string }[]; dropped: number };
        }>(['jobs', 'show', id, '--tenant', 'acme', ...target.flags]);
        expect(shown.doc.logs.dropped).toBe(0);
        expect(shown.doc.logs.lines.map((line) => [line.seq, line.level, line.message])).toEqual([
          [1, 'warn', 'first'],
          [2, 'info', 'second'],
          [3, 'info', 'third'],
        ]);
        const after = await berthJson<{ lines: { message: string }[] }>([
          'jobs',
          'logs',
          id,
          '--after',
          '1',
          ...target.flags,
        ]);
        expect(after.doc.lines.map((line) => line.message)).toEqual(['second', 'third']);
        const text = await berth(['jobs', 'show', id, ...target.flags]);
        expect(text.code).toBe(0);
        expect(text.stdout).toContain('logs (3)');
        for (const args of [
          ['jobs', 'logs', id, '--tenant', 'globex'],
          ['jobs', 'show', id, '--tenant', 'globex'],
        ]) {
          const refused = await berth([...args, '--json', ...target.flags]);
          expect(refused.code).toBe(1);
          expect(JSON.parse(refused.stderr)).toMatchObject({ code: 'JOB_NOT_FOUND' });
        }
      } finally {
        await target.dispose();
      }
    });
  });
}

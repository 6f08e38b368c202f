import type { ClaimedJob, Driver, Fence } from '@berth/core';
import type { KvEntry } from '@nats-io/kv';
import { describe, expect, it } from 'vitest';
import type { NatsContext } from '../src/context.js';
import { readJob } from '../src/docs.js';
import { listLogs } from '../src/logs.js';
import { readSteps } from '../src/step-log.js';
import { natsDriver, openTestContext } from './nats-factory.js';

/**
 * The aux bucket as a history consumer on a lagging replica of an R3 stream sees it: every entry
 * but the newest chunk write. A get by key (from the stream leader) still answers it.
 */
function laggingHistory(context: NatsContext): NatsContext {
  const aux = context.aux;
  const lagging = Object.create(aux, {
    history: {
      value: async (options: { key: string }) => {
        const entries: KvEntry[] = [];
        for await (const entry of await aux.history(options)) entries.push(entry);
        const newest = entries.reduce<KvEntry | undefined>(
          (latest, entry) =>
            latest === undefined || entry.revision > latest.revision ? entry : latest,
          undefined,
        );
        return (async function* () {
          yield* entries.filter((entry) => entry !== newest);
        })();
      },
    },
  });
  return Object.create(context, { aux: { value: lagging } });
}

/** A claimed job on a fresh driver, and the driver's own context beside it; both closed after. */
async function withClaimedJob(
  use: (opened: {
    driver: Driver;
    context: NatsContext;
    job: ClaimedJob;
    fence: Fence;
  }) => Promise<void>,
): Promise<void> {
  const { driver, url, prefix, dispose } = await natsDriver();
  const context = await openTestContext(url, prefix);
  try {
    const { id } = await driver.enqueue({ name: 'task', queue: 'lagging' });
    const [job] = await driver.claim({
      queues: ['lagging'],
      workerId: 'w',
      visibilityTimeoutMs: 30_000,
    });
    if (job === undefined) throw new Error('expected a claim');
    await use({ driver, context, job, fence: { jobId: id, workerId: 'w', claim: job.claim } });
  } finally {
    context.stopStatus();
    context.mirror.stop();
    context.wake.close();
    await context.nc.close();
    await dispose();
  }
}

describe('nats job logs and step logs on a lagging replica', () => {
  it('a log whose newest chunk a history read has not seen yet is read whole: the chunk is fetched from the stream leader', () =>
    withClaimedJob(async ({ driver, context, job, fence }) => {
      const line = (n: number) => ({ at: 1_000 + n, level: 'info' as const, message: `line ${n}` });
      expect(await driver.logs.append(fence, { from: 0, lines: [line(0), line(1)] })).toBe(true);
      expect(await driver.logs.append(fence, { from: 2, lines: [line(2)] })).toBe(true);
      const page = await listLogs(laggingHistory(context), job.id, {
        tenantId: undefined,
        after: 0,
        limit: 10,
      });
      expect(page.lines.map((logged) => logged.message)).toEqual(['line 0', 'line 1', 'line 2']);
    }));

  it('a step log whose newest entry a history read has not seen yet is read whole from the stream leader', () =>
    withClaimedJob(async ({ driver, context, job, fence }) => {
      for (const name of ['load', 'send']) {
        const step = { runId: job.runId, name, status: 'completed' as const, output: name };
        await driver.steps.put({ ...step, attempts: 1, startedAt: 1, updatedAt: 2 }, fence);
      }
      const stored = (await readJob(context, job.id))?.job;
      const steps = await readSteps(laggingHistory(context), job.id, job.runId, stored?.steps);
      expect(steps.map((step) => step.name)).toEqual(['load', 'send']);
    }));
});

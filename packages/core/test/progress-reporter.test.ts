import { describe, expect, it } from 'vitest';
import {
  type ClaimedJob,
  type Driver,
  type Fence,
  isBerthError,
  type Json,
  MAX_PROGRESS_BYTES,
  type ManualClock,
  PROGRESS_FLUSH_MS,
} from '../src/index.js';
import { createProgressReporter } from '../src/runtime/worker/progress-reporter.js';
import { memoryOnManualClock } from './support/memory.js';
import { recordingLogger, settleTicks } from './support/runtime.js';
import { wrapDriver } from './support/wrap.js';

const INTERVAL = 250;

/** A claimed job on a fresh memory driver, and a driver over it that counts progress writes. */
async function claimed(replace?: (fence: Fence, value: Json) => Promise<boolean>): Promise<{
  driver: Driver;
  clock: ManualClock;
  job: ClaimedJob;
  fence: Fence;
  writes: Json[];
}> {
  const { driver: inner, clock } = memoryOnManualClock();
  await inner.enqueue({ name: 'task', queue: 'q' });
  const [job] = await inner.claim({ queues: ['q'], workerId: 'w', visibilityTimeoutMs: 30_000 });
  if (job === undefined) throw new Error('nothing claimed');
  const writes: Json[] = [];
  const driver = wrapDriver(inner, {
    top: {
      progress: (fence: Fence, value: Json) => {
        writes.push(value);
        return replace === undefined ? inner.progress(fence, value) : replace(fence, value);
      },
    },
  });
  return { driver, clock, job, fence: { jobId: job.id, workerId: 'w', claim: job.claim }, writes };
}

function reporterOn(
  at: { driver: Driver; fence: Fence },
  seen: { landed: Json[]; refused: number } = { landed: [], refused: 0 },
) {
  const log = recordingLogger();
  const reporter = createProgressReporter({
    driver: at.driver,
    fence: at.fence,
    logger: log.logger,
    intervalMs: INTERVAL,
    onLanded: (value) => seen.landed.push(value),
    onRefused: () => {
      seen.refused += 1;
    },
  });
  return { reporter, seen, lines: log.lines };
}

describe('progress reporter', () => {
  it('writes the first value at once, then only the latest, at most once per interval', async () => {
    const at = await claimed();
    const { reporter, seen } = reporterOn(at);
    const answers = [1, 2, 3, 4].map((done) => reporter.report({ done }));
    await settleTicks();
    expect(at.writes).toEqual([{ done: 1 }]);
    await at.clock.advance(INTERVAL - 1);
    await settleTicks();
    expect(at.writes).toEqual([{ done: 1 }]);
    await at.clock.advance(1);
    await settleTicks();
    expect(at.writes).toEqual([{ done: 1 }, { done: 4 }]);
    // A value replaced within the interval answers with the write that carried the later one.
    expect(await Promise.all(answers)).toEqual([true, true, true, true]);
    expect(seen.landed).toEqual([{ done: 1 }, { done: 4 }]);
    expect((await at.driver.get(at.job.id))?.progress).toEqual({ done: 4 });
  });

  it('a report after a quiet interval is written at once', async () => {
    const at = await claimed();
    const { reporter } = reporterOn(at);
    await reporter.report('a');
    await at.clock.advance(INTERVAL * 3);
    const answer = reporter.report('b');
    await settleTicks();
    expect(at.writes).toEqual(['a', 'b']);
    expect(await answer).toBe(true);
  });

  it('close writes the pending value without waiting out the interval, and later reports answer false unwritten', async () => {
    const at = await claimed();
    const { reporter } = reporterOn(at);
    void reporter.report(1);
    const last = reporter.report(2);
    await reporter.close(true);
    expect(at.writes).toEqual([1, 2]);
    expect(await last).toBe(true);
    expect(await reporter.report(3)).toBe(false);
    expect(at.writes).toEqual([1, 2]);
    expect((await at.driver.get(at.job.id))?.progress).toBe(2);
  });

  it('close(false) drops the pending value: a lost lease writes nothing more', async () => {
    const at = await claimed();
    const { reporter } = reporterOn(at);
    void reporter.report(1);
    const dropped = reporter.report(2);
    await reporter.close(false);
    expect(at.writes).toEqual([1]);
    expect(await dropped).toBe(false);
  });

  it('a refused write answers false, drops what waits, tells onRefused once and writes nothing more', async () => {
    const at = await claimed();
    const { reporter, seen } = reporterOn(at);
    await at.driver.cancel(at.job.id);
    const first = reporter.report(1);
    const waiting = reporter.report(2);
    expect(await first).toBe(false);
    expect(await waiting).toBe(false);
    await at.clock.advance(INTERVAL * 4);
    expect(await reporter.report(3)).toBe(false);
    await reporter.close(true);
    expect(at.writes).toEqual([1]);
    expect(seen).toEqual({ landed: [], refused: 1 });
  });

  it('a failed write is logged and tried again at the next interval; its report answers false and never rejects', async () => {
    let fail = true;
    const at = await claimed(async () => {
      if (fail) throw new Error('backend down');
      return true;
    });
    const { reporter, lines } = reporterOn(at);
    expect(await reporter.report('x')).toBe(false);
    expect(lines.map((line) => line.level)).toEqual(['warn']);
    fail = false;
    await at.clock.advance(INTERVAL);
    await settleTicks();
    expect(at.writes).toEqual(['x', 'x']);
  });

  it('a value that is not JSON, or over MAX_PROGRESS_BYTES, throws JOB_INVALID at the call and the reporter goes on', async () => {
    const at = await claimed();
    const { reporter } = reporterOn(at);
    for (const bad of [undefined, new Map(), () => 1, 'x'.repeat(MAX_PROGRESS_BYTES)]) {
      let thrown: unknown;
      try {
        void reporter.report(bad);
      } catch (error) {
        thrown = error;
      }
      expect(isBerthError(thrown, 'JOB_INVALID')).toBe(true);
    }
    expect(at.writes).toEqual([]);
    expect(await reporter.report('fine')).toBe(true);
  });

  it('reports replaced within the interval share one answer: a tight loop holds one value, not one promise per call', async () => {
    const at = await claimed();
    const { reporter } = reporterOn(at);
    await reporter.report(0);
    const answers = Array.from({ length: 1_000 }, (_, done) => reporter.report(done));
    expect(new Set(answers).size).toBe(1);
    await reporter.close(true);
    expect(await answers[0]).toBe(true);
    expect(at.writes).toEqual([0, 999]);
  });

  it('close gives up on a write that never answers after PROGRESS_FLUSH_MS, logs it, and answers the reports false', async () => {
    const at = await claimed(() => new Promise<boolean>(() => {}));
    const { reporter, lines } = reporterOn(at);
    const hung = reporter.report(1);
    const waiting = reporter.report(2);
    let closed = false;
    const closing = reporter.close(true).then(() => {
      closed = true;
    });
    await settleTicks();
    expect(closed).toBe(false);
    await at.clock.advance(PROGRESS_FLUSH_MS);
    await closing;
    expect(at.writes).toEqual([1]);
    expect(await waiting).toBe(false);
    expect(lines.map((line) => line.message)).toEqual([
      `the last progress write did not answer within ${PROGRESS_FLUSH_MS} ms; settling without it`,
    ]);
    void hung;
  });

  it('stores a copy: the handler changing its object after the report changes nothing stored', async () => {
    const at = await claimed();
    const { reporter } = reporterOn(at);
    const value = { done: 1 };
    void reporter.report(value);
    const later = reporter.report(value);
    value.done = 99;
    await reporter.close(true);
    expect(await later).toBe(true);
    expect((await at.driver.get(at.job.id))?.progress).toEqual({ done: 1 });
  });
});

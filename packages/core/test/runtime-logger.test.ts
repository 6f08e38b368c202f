import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, createConsoleLogger, createWorker, defineJob } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, recordingLogger } from './support/runtime.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('logging', () => {
  it('the console logger writes warn and above by default, and what its level lets through', () => {
    const lines: string[] = [];
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      vi.spyOn(console, level).mockImplementation((text: string) => {
        lines.push(`${level}|${text}`);
      });
    }
    const quiet = createConsoleLogger();
    quiet.debug('d');
    quiet.info('i');
    quiet.warn('w', { jobId: 'x' });
    quiet.error('e');
    expect(lines).toEqual(['warn|berth warn: w', 'error|berth error: e']);
    lines.length = 0;
    const chatty = createConsoleLogger({ level: 'debug' });
    chatty.debug('d');
    createConsoleLogger({ level: 'silent' }).error('never');
    expect(lines).toEqual(['debug|berth debug: d']);
  });

  it("a handler's ctx.logger carries the worker, job and attempt in every line", async () => {
    const { driver, clock } = memoryOnManualClock();
    const { logger, lines } = recordingLogger();
    const job = defineJob({
      name: 'chatty',
      run: ({ logger: jobLogger }) => {
        jobLogger.info('working', { step: 1 });
      },
    });
    const worker = createWorker({
      driver,
      jobs: [job],
      workerId: 'w-1',
      concurrency: 1,
      visibilityTimeoutMs: 30_000,
      logger,
    });
    await worker.start();
    const { id } = await createClient({ driver }).enqueue(job, null);
    await driveToState(driver, clock, id, 'completed');
    await worker.stop({ graceMs: 0 });
    expect(lines).toContainEqual({
      level: 'info',
      message: 'working',
      fields: { workerId: 'w-1', jobId: id, job: 'chatty', attempt: 1, step: 1 },
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { DriverBackend } from '../src/driver.js';
import { createDriver, isBerthError, systemClock } from '../src/index.js';

/** A backend whose every member fails raw: what the wrapper must never let through. */
function rawFailingBackend(calls: string[]): DriverBackend {
  const fail = (name: string) => async () => {
    calls.push(name);
    throw new Error(`socket closed in ${name}`);
  };
  const store = <T extends object>(names: string[]): T =>
    Object.fromEntries(names.map((name) => [name, fail(name)])) as T;
  return {
    name: 'raw',
    clock: systemClock,
    maxPayloadBytes: 1_024,
    ...store<
      Omit<DriverBackend, 'name' | 'clock' | 'maxPayloadBytes' | 'steps' | 'events' | 'leases'>
    >([
      'enqueue',
      'enqueueMany',
      'claim',
      'ack',
      'nack',
      'suspend',
      'extend',
      'progress',
      'ackMany',
      'nackMany',
      'extendMany',
      'get',
      'cancel',
      'promote',
      'requeue',
      'list',
      'stats',
      'purge',
      'close',
    ]),
    steps: store(['get', 'put', 'list']),
    events: store(['publish', 'find', 'list', 'purgeExpired']),
    leases: store([
      'acquire',
      'renew',
      'release',
      'holder',
      'acquireSlot',
      'renewSlot',
      'releaseSlot',
    ]),
  };
}

const codeOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
    return 'answered';
  } catch (error) {
    return isBerthError(error) ? error.code : 'raw';
  }
};

describe('createDriver', () => {
  it('turns a raw backend error into DRIVER_UNAVAILABLE with it as the cause', async () => {
    const driver = createDriver(rawFailingBackend([]));
    try {
      await driver.stats();
      expect.unreachable();
    } catch (error) {
      expect(isBerthError(error, 'DRIVER_UNAVAILABLE')).toBe(true);
      if (isBerthError(error)) {
        expect(error.cause).toBeInstanceOf(Error);
        expect(error.meta).toEqual({ driver: 'raw', operation: 'read stats' });
      }
    }
  });

  it('refuses bad input before the backend is called', async () => {
    const calls: string[] = [];
    const driver = createDriver(rawFailingBackend(calls));
    expect(await codeOf(driver.enqueue({ name: '' }))).toBe('JOB_INVALID');
    expect(await codeOf(driver.get('not-a-uuid'))).toBe('JOB_INVALID');
    expect(await codeOf(driver.claim({ queues: [], workerId: 'w', visibilityTimeoutMs: 1 }))).toBe(
      'JOB_INVALID',
    );
    expect(await codeOf(driver.list({ limit: 501 }))).toBe('JOB_PAGE_INVALID');
    expect(await codeOf(driver.list({ after: 'forged' }))).toBe('JOB_PAGE_INVALID');
    expect(await codeOf(driver.purge({ states: ['ready'], olderThan: 0 }))).toBe('JOB_INVALID');
    expect(await codeOf(driver.leases.acquireSlot('k', 0, 'h', 10))).toBe('JOB_INVALID');
    expect(await codeOf(driver.ack({ jobId: 'x', workerId: 'w', claim: 1 }, {}))).toBe(
      'JOB_INVALID',
    );
    const fence = { jobId: '00000000-0000-4000-8000-000000000000', workerId: 'w', claim: 1 };
    expect(await codeOf(driver.progress(fence, undefined as never))).toBe('JOB_INVALID');
    // Over the backend's payload limit (1 024 here), which is below MAX_PROGRESS_BYTES.
    expect(await codeOf(driver.progress(fence, 'x'.repeat(1_024)))).toBe('JOB_INVALID');
    expect(await codeOf(driver.progress({ ...fence, claim: -1 }, 1))).toBe('JOB_INVALID');
    expect(calls).toEqual([]);
  });

  it('answers an empty batch without calling the backend', async () => {
    const calls: string[] = [];
    const driver = createDriver(rawFailingBackend(calls));
    expect(await driver.enqueueMany([])).toEqual([]);
    expect(await driver.ackMany([])).toEqual([]);
    expect(await driver.nackMany([])).toEqual([]);
    expect(await driver.extendMany([], 1_000)).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('screens every extendMany item as a fence and the lease length before the backend is called', async () => {
    const calls: string[] = [];
    const driver = createDriver(rawFailingBackend(calls));
    const fence = { jobId: '00000000-0000-4000-8000-000000000000', workerId: 'w', claim: 1 };
    expect(await codeOf(driver.extendMany([fence, { ...fence, claim: -1 }], 1_000))).toBe(
      'JOB_INVALID',
    );
    expect(await codeOf(driver.extendMany(new Array(2), 1_000))).toBe('JOB_INVALID');
    expect(await codeOf(driver.extendMany([fence], -1))).toBe('JOB_INVALID');
    expect(await codeOf(driver.extendMany([], -1))).toBe('JOB_INVALID');
    expect(await codeOf(driver.extendMany(null as never, 1_000))).toBe('JOB_INVALID');
    expect(calls).toEqual([]);
    expect(await codeOf(driver.extendMany([fence], 1_000))).toBe('DRIVER_UNAVAILABLE');
    expect(calls).toEqual(['extendMany']);
  });
});

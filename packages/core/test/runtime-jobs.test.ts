import { describe, expect, it } from 'vitest';
import {
  BerthError,
  backoffDelay,
  DEFAULT_BACKOFF,
  DEFAULT_MAX_ATTEMPTS,
  defineJob,
  isRetryable,
  NonRetryableError,
  toJobError,
} from '../src/index.js';

const noop = () => undefined;

describe('backoffDelay', () => {
  const exact = { initialMs: 1_000, factor: 2, maxMs: 10_000, jitter: 0 };

  it('grows by the factor per failed attempt, from initialMs after the first', () => {
    expect([1, 2, 3, 4].map((attempt) => backoffDelay(exact, attempt))).toEqual([
      1_000, 2_000, 4_000, 8_000,
    ]);
  });

  it('never waits longer than maxMs', () => {
    expect(backoffDelay(exact, 5)).toBe(10_000);
    expect(backoffDelay(exact, 50)).toBe(10_000);
  });

  it('takes jitter off the capped wait in proportion to the random draw', () => {
    const jittered = { ...exact, jitter: 0.5 };
    expect(backoffDelay(jittered, 2, () => 0)).toBe(2_000);
    expect(backoffDelay(jittered, 2, () => 0.5)).toBe(1_500);
    expect(backoffDelay(jittered, 2, () => 0.999)).toBe(1_001);
    expect(backoffDelay(jittered, 9, () => 0.25)).toBe(8_750);
  });

  it('defaults to 1 s doubling up to 5 minutes with 20% jitter', () => {
    expect(DEFAULT_BACKOFF).toEqual({ initialMs: 1_000, factor: 2, maxMs: 300_000, jitter: 0.2 });
    expect(backoffDelay(DEFAULT_BACKOFF, 3, () => 0.5)).toBe(3_600);
  });
});

describe('defineJob', () => {
  it('fills the queue and retry defaults', () => {
    const job = defineJob({ name: 'plain', run: noop });
    expect(job.queue).toBe('default');
    expect(job.retry).toEqual({
      maxAttempts: DEFAULT_MAX_ATTEMPTS,
      backoff: DEFAULT_BACKOFF,
      deadLetter: true,
    });
  });

  it('merges a partial backoff over the defaults', () => {
    const job = defineJob({
      name: 'partial',
      retry: { maxAttempts: 5, backoff: { initialMs: 50 }, deadLetter: false },
      run: noop,
    });
    expect(job.retry).toEqual({
      maxAttempts: 5,
      backoff: { ...DEFAULT_BACKOFF, initialMs: 50 },
      deadLetter: false,
    });
  });

  it('normalizes a numeric concurrency to a limit', () => {
    expect(defineJob({ name: 'limited', concurrency: 2, run: noop }).concurrency).toEqual({
      limit: 2,
    });
  });

  it.each([
    ['an empty name', { name: '' }],
    ['zero attempts', { name: 'x', retry: { maxAttempts: 0 } }],
    ['fractional attempts', { name: 'x', retry: { maxAttempts: 1.5 } }],
    ['jitter over 1', { name: 'x', retry: { backoff: { jitter: 2 } } }],
    ['a factor under 1', { name: 'x', retry: { backoff: { factor: 0.5 } } }],
    ['a zero timeout', { name: 'x', timeout: 0 }],
    ['a zero concurrency', { name: 'x', concurrency: 0 }],
    ['a rate limit without interval', { name: 'x', rateLimit: { limit: 1, intervalMs: 0 } }],
    ['a schema that is not a Standard Schema', { name: 'x', schema: {} }],
  ])('refuses %s with CONFIG_INVALID', (_, options) => {
    expect(() => defineJob({ ...(options as { name: string }), run: noop })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });
});

describe('retryability', () => {
  it('treats NonRetryableError and any error with retryable false as final', () => {
    expect(isRetryable(new NonRetryableError('card declined'))).toBe(false);
    expect(isRetryable(Object.assign(new Error('bad input'), { retryable: false }))).toBe(false);
    expect(isRetryable(new Error('flaky'))).toBe(true);
    expect(isRetryable('a string')).toBe(true);
  });

  it("stores a thrown error's code, message and stack as the job error", () => {
    const error = new BerthError({
      code: 'JOB_TIMEOUT',
      detail: 'too slow',
      meta: { jobId: '7f0c6b2e-8a47-4a83-9b3c-0f1b2a3c4d5e', timeoutMs: 10 },
    });
    expect(toJobError(error)).toMatchObject({
      code: 'JOB_TIMEOUT',
      message: 'JOB_TIMEOUT: too slow',
    });
    expect(toJobError(error).stack).toContain('JOB_TIMEOUT');
    expect(toJobError('plain')).toEqual({ message: 'plain' });
  });

  it('turns whatever a handler threw into a string message, never throwing itself', () => {
    expect(toJobError(Object.create(null))).toEqual({ message: 'an object' });
    const odd = new Error('x');
    Object.defineProperty(odd, 'message', { value: Object.create(null) });
    Object.defineProperty(odd, 'code', {
      get() {
        throw new Error('code getter');
      },
    });
    expect(toJobError(odd).message).toBe('an object');
    expect(toJobError(odd)).not.toHaveProperty('code');
  });
});

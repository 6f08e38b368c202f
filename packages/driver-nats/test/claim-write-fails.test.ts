import type { Driver } from '@berth/core';
import type { ScreenedClaim } from '@berth/core/driver';
import type { KV } from '@nats-io/kv';
import { describe, expect, it } from 'vitest';
import { claim } from '../src/claim.js';
import type { NatsContext } from '../src/context.js';
import { natsDriver, openTestContext } from './nats-factory.js';

/**
 * What the Nth `update` of the jobs bucket does: fail before it is sent, land and then lose its
 * answer, or lose its answer first and land later (a timed-out write still in flight).
 */
type Fault = 'fails' | 'answer-lost' | 'lands-late';

/** The jobs bucket with `faults` on its updates by call number (1-based); the rest pass through. */
function faulty(jobs: KV, faults: ReadonlyMap<number, Fault>) {
  let calls = 0;
  const late: (() => Promise<unknown>)[] = [];
  const kv = new Proxy(jobs, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== 'update') return value.bind(target);
      return async (...args: unknown[]) => {
        calls += 1;
        const fault = faults.get(calls);
        if (fault === 'fails') throw new Error('the write was refused before it was sent');
        if (fault === 'lands-late') {
          late.push(() => value.apply(target, args));
          throw new Error('timeout');
        }
        const answer: unknown = await value.apply(target, args);
        if (fault === 'answer-lost') throw new Error('the connection dropped before the answer');
        return answer;
      };
    },
  });
  return { kv, late };
}

const request = (queue: string): ScreenedClaim => ({
  queues: [queue],
  limit: 3,
  workerId: 'w',
  visibilityTimeoutMs: 60_000,
  names: undefined,
  dropExhausted: [],
});

/** Every row is either in the claim's answer (running, one attempt) or ready with none spent. */
async function expectNoAttemptSpentUnanswered(
  driver: Driver,
  ids: readonly string[],
  answered: readonly string[],
): Promise<void> {
  for (const id of ids) {
    const job = await driver.get(id);
    if (answered.includes(id)) expect(job).toMatchObject({ state: 'running', attempts: 1 });
    else expect(job, `row ${ids.indexOf(id)}`).toMatchObject({ state: 'ready', attempts: 0 });
  }
}

const CASES: readonly { title: string; faults: [number, Fault][]; answered?: number }[] = [
  { title: 'the second row’s write fails', faults: [[2, 'fails']] },
  { title: 'the second row’s write lands but its answer is lost', faults: [[2, 'answer-lost']] },
  { title: 'the second row’s write times out and lands afterwards', faults: [[2, 'lands-late']] },
  {
    // Update 4 is the write giving row 2 back: it fails too, so the next claim gives it back.
    title: 'the second row’s answer is lost and so is its give-back, until the next claim',
    faults: [
      [2, 'answer-lost'],
      [4, 'fails'],
    ],
    answered: 2,
  },
  {
    title: 'every write fails',
    faults: [
      [1, 'answer-lost'],
      [2, 'fails'],
      [3, 'lands-late'],
    ],
  },
];

describe('a nats claim whose writes fail part-way', () => {
  for (const { title, faults, answered = 3 - faults.length } of CASES) {
    it(`spends no attempt it does not answer: ${title}`, async () => {
      const { driver, url, prefix, dispose } = await natsDriver();
      const context = await openTestContext(url, prefix);
      try {
        const ids: string[] = [];
        for (let row = 0; row < 3; row += 1) {
          ids.push((await driver.enqueue({ name: 'part', queue: 'parts' })).id);
        }
        const { kv, late } = faulty(context.jobs, new Map(faults));
        const lossy: NatsContext = Object.create(context, { jobs: { value: kv } });
        const answer = await claim(lossy, request('parts')).then(
          (outcome) => outcome.claimed.map((job) => job.id),
          () => [],
        );
        // A write that timed out may still land: it must land nothing, whenever it comes.
        await Promise.allSettled(late.map((write) => write()));
        await claim(lossy, request('elsewhere'));
        await expectNoAttemptSpentUnanswered(driver, ids, answer);
        expect(answer).toHaveLength(answered);
      } finally {
        context.stopStatus();
        context.mirror.stop();
        context.wake.close();
        await context.nc.close();
        await dispose();
      }
    });
  }
});

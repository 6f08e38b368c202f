import { randomUUID } from 'node:crypto';
import type { BackfillRun, Driver } from '@berth/core';
import type { KV } from '@nats-io/kv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitBackfill } from '../src/backfill-change.js';
import { startBackfill } from '../src/backfill-start.js';
import type { NatsContext } from '../src/context.js';
import { AnswerLostError } from '../src/lost-answers.js';
import { encodeJson } from '../src/record.js';
import { natsDriver, openTestContext } from './nats-factory.js';

/**
 * Ledger writes whose answer was lost, and a start stopped between its two writes: each call
 * decides from what the bucket holds, so nothing half done shows and nothing counts twice.
 */

type Update = KV['update'];
type Create = KV['create'];

/** The aux bucket, whose next call of `method` goes through `wrap` (which may make it or not). */
function onNext<M extends 'update' | 'create'>(
  aux: KV,
  method: M,
  wrap: (call: KV[M]) => KV[M],
): KV {
  let armed = true;
  return new Proxy(aux, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const bound = value.bind(target);
      if (property !== method || !armed) return bound;
      armed = false;
      return wrap(bound as KV[M]);
    },
  });
}

let driver: Driver;
let context: NatsContext;
let dispose: () => Promise<void>;

beforeEach(async () => {
  const made = await natsDriver();
  driver = made.driver;
  dispose = made.dispose;
  context = await openTestContext(made.url, made.prefix);
});

afterEach(async () => {
  context.stopStatus();
  context.mirror.stop();
  context.wake.close();
  await context.nc.close();
  await dispose();
});

const lossy = (lose: (update: Update) => Update): NatsContext =>
  Object.create(context, { aux: { value: onNext(context.aux, 'update', lose) } });

async function started(name = 'reindex') {
  const answer = await driver.backfills.start({ runId: randomUUID(), jobId: randomUUID(), name });
  if (!answer.started) throw new Error('the start was refused');
  return answer.run;
}

describe('a backfill write whose answer was lost', () => {
  it('that landed answers changed, and the pass counts once', async () => {
    const run = await started();
    const landedThenLost = lossy((update) => async (...args) => {
      await update(...args);
      throw new AnswerLostError();
    });
    const pass = { runId: run.runId, jobId: run.jobId, passes: 0, next: 'k-1', rows: 5 };
    expect(await commitBackfill(landedThenLost, pass)).toMatchObject({
      changed: true,
      run: { passes: 1, rowsDone: 5, cursor: 'k-1' },
    });
    expect(await driver.backfills.get(run.runId)).toMatchObject({ passes: 1, rowsDone: 5 });
  });

  it('that never landed is fenced, decided again and lands once', async () => {
    const run = await started();
    const neverSent = lossy(() => async () => {
      throw new AnswerLostError();
    });
    const pass = { runId: run.runId, jobId: run.jobId, passes: 0, next: 'k-1', rows: 5 };
    expect((await commitBackfill(neverSent, pass))?.changed).toBe(true);
    expect(await driver.backfills.get(run.runId)).toMatchObject({ passes: 1, rowsDone: 5 });
  });

  it('that landed and was overwritten before anyone read it fails as maybe landed; a retry reads the pass counted once', async () => {
    const run = await started();
    const overwritten = lossy((update) => async (...args) => {
      await update(...args);
      await driver.backfills.transition(run.runId, { from: ['running'], to: 'paused' });
      throw new AnswerLostError();
    });
    const pass = { runId: run.runId, jobId: run.jobId, passes: 0, next: 'k-1', rows: 5 };
    await expect(commitBackfill(overwritten, pass)).rejects.toBeInstanceOf(AnswerLostError);
    const retried = await driver.backfills.commit(run.runId, pass);
    expect(retried).toMatchObject({
      changed: false,
      run: { status: 'paused', passes: 1, rowsDone: 5 },
    });
  });
});

describe('a backfill start stopped half way', () => {
  it('after its pointer, before its ledger write: the run reads as missing, and the retried start stores it', async () => {
    const runId = randomUUID();
    const jobId = randomUUID();
    const pointer = encodeJson({ runId, name: 'reindex' });
    await context.aux.create(context.subjects.backfillPointer(runId), pointer);
    expect(await driver.backfills.get(runId)).toBeUndefined();
    expect(await driver.backfills.list()).toEqual([]);
    const missing = await driver.backfills.transition(runId, { from: ['running'], to: 'paused' });
    expect(missing).toBeUndefined();
    const retried = await driver.backfills.start({ runId, jobId, name: 'reindex' });
    expect(retried).toMatchObject({ started: true, run: { runId, status: 'running' } });
    expect(await driver.backfills.get(runId)).toMatchObject({ runId, jobId });
  });

  it('a start refused after it wrote its pointer (a sibling took the place first) removes the pointer', async () => {
    const runId = randomUUID();
    let sibling: BackfillRun | undefined;
    const overtaken: NatsContext = Object.create(context, {
      aux: {
        value: onNext(context.aux, 'create', (create: Create) => async (...args) => {
          const revision = await create(...args);
          sibling = await started();
          return revision;
        }),
      },
    });
    const start = { runId, jobId: randomUUID(), name: 'reindex', tenantId: undefined };
    const refused = await startBackfill(overtaken, { ...start, cursor: null, maxActive: 1 });
    expect(refused).toEqual({ started: false, active: [sibling] });
    expect(await context.aux.get(context.subjects.backfillPointer(runId))).toBeNull();
    expect(await driver.backfills.get(runId)).toBeUndefined();
  });
});

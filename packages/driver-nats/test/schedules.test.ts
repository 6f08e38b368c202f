import type { Driver } from '@berth/core';
import type { ScheduleWrite } from '@berth/core/driver';
import type { KV } from '@nats-io/kv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SPILL_AT } from '../src/blobs.js';
import type { NatsContext } from '../src/context.js';
import { AnswerLostError } from '../src/lost-answers.js';
import { putSchedule, removeSchedule } from '../src/schedule-writes.js';
import { scheduleBackend } from '../src/schedules.js';
import { natsDriver, openTestContext } from './nats-factory.js';

/**
 * What the kit cannot reach: writes whose answer was lost, payloads spilled into parts, removes
 * that leave no record behind, a fresh process's mirror, and list and due read from the mirror.
 */

type Method = 'update' | 'create' | 'get' | 'keys';

/** The jobs bucket, whose next call of `method` goes through `wrap` (which may make it or not). */
function onNext<M extends Method>(jobs: KV, method: M, wrap: (call: KV[M]) => KV[M]): KV {
  let armed = true;
  return new Proxy(jobs, {
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
let url: string;
let prefix: string;
let dispose: () => Promise<void>;
const opened: NatsContext[] = [];

async function open(): Promise<NatsContext> {
  const made = await openTestContext(url, prefix);
  opened.push(made);
  return made;
}

beforeEach(async () => {
  const made = await natsDriver();
  ({ driver, url, prefix, dispose } = made);
  context = await open();
});

afterEach(async () => {
  for (const made of opened.splice(0)) {
    made.stopStatus();
    made.mirror.stop();
    made.wake.close();
    await made.nc.close();
  }
  await dispose();
});

const write = (fields: Partial<ScheduleWrite> = {}): ScheduleWrite => ({
  name: 'nightly',
  cron: '0 3 * * *',
  job: 'report',
  payload: null,
  paused: false,
  nextAt: 1_000,
  ...fields,
});

const withJobs = (jobs: KV): NatsContext => Object.create(context, { jobs: { value: jobs } });

/** Keys of the aux bucket holding parts of the schedule's payload. */
async function partsOf(name: string): Promise<string[]> {
  const owner = context.subjects.scheduleOwner(name, undefined);
  const keys: string[] = [];
  for await (const key of await context.aux.keys(`x.${owner}.>`)) keys.push(key);
  return keys;
}

describe('a schedule write whose answer was lost', () => {
  it('that landed answers the record, stored once at revision 1', async () => {
    const lost = withJobs(
      onNext(context.jobs, 'create', (create) => async (...args) => {
        await create(...args);
        throw new AnswerLostError();
      }),
    );
    const stored = await putSchedule(lost, write(), 0);
    expect(stored).toMatchObject({ name: 'nightly', revision: 1 });
    expect(await driver.schedules.get('nightly')).toEqual(stored);
    // The caller's own retry is refused as any stale writer's.
    expect(await driver.schedules.put(write(), 0)).toBeUndefined();
  });

  it('that never landed is fenced, decided again and lands once', async () => {
    await driver.schedules.put(write(), 0);
    const lost = withJobs(
      onNext(context.jobs, 'update', () => async () => {
        throw new AnswerLostError();
      }),
    );
    const stored = await putSchedule(lost, write({ nextAt: 2_000 }), 1);
    expect(stored).toMatchObject({ revision: 2, nextAt: 2_000 });
    expect(await driver.schedules.get('nightly')).toEqual(stored);
  });

  it('a create that never landed, over nothing stored, is fenced and lands at revision 1', async () => {
    const lost = withJobs(
      onNext(context.jobs, 'create', () => async () => {
        throw new AnswerLostError();
      }),
    );
    expect(await putSchedule(lost, write(), 0)).toMatchObject({ revision: 1 });
    expect((await driver.schedules.list()).schedules).toHaveLength(1);
  });

  it('that landed and was written over before anyone read it fails as maybe landed', async () => {
    await driver.schedules.put(write(), 0);
    const overwritten = withJobs(
      onNext(context.jobs, 'update', (update) => async (...args) => {
        await update(...args);
        await driver.schedules.put(write({ nextAt: 3_000 }), 2);
        throw new AnswerLostError();
      }),
    );
    await expect(putSchedule(overwritten, write({ nextAt: 2_000 }), 1)).rejects.toBeInstanceOf(
      AnswerLostError,
    );
    expect(await driver.schedules.get('nightly')).toMatchObject({ revision: 3, nextAt: 3_000 });
  });

  it('a remove that landed answers true, and the name is free again', async () => {
    await driver.schedules.put(write(), 0);
    const lost = withJobs(
      onNext(context.jobs, 'update', (update) => async (...args) => {
        await update(...args);
        throw new AnswerLostError();
      }),
    );
    expect(await removeSchedule(lost, 'nightly', undefined, 1)).toBe(true);
    expect(await driver.schedules.get('nightly')).toBeUndefined();
    expect(await driver.schedules.put(write(), 0)).toMatchObject({ revision: 1 });
  });
});

describe('stored schedules in the bucket', () => {
  it('a remove leaves a delete marker, not a record', async () => {
    await driver.schedules.put(write(), 0);
    expect(await driver.schedules.remove('nightly', 1)).toBe(true);
    const entry = await context.jobs.get(context.subjects.schedule('nightly', undefined));
    expect(entry?.operation).toBe('DEL');
  });

  it('a payload over the inline size is kept in parts, answered whole, and its parts go with it', async () => {
    const big = { text: 'x'.repeat(SPILL_AT * 2) };
    // Just under the default maxPayloadBytes: over the server's message cap in one record.
    const huge = { text: 'y'.repeat(1_048_576 - 20) };
    const stored = await driver.schedules.put(write({ payload: big }), 0);
    expect(stored?.payload).toEqual(big);
    expect(await driver.schedules.get('nightly')).toEqual(stored);
    expect(await driver.schedules.due(1_000, 10)).toEqual([stored]);
    const first = await partsOf('nightly');
    expect(first.length).toBeGreaterThan(0);
    const replaced = await driver.schedules.put(write({ payload: huge }), 1);
    expect((await driver.schedules.list()).schedules).toEqual([replaced]);
    const second = await partsOf('nightly');
    expect(second.some((key) => first.includes(key))).toBe(false);
    expect(await driver.schedules.put(write({ payload: 'small' }), 2)).toMatchObject({
      payload: 'small',
    });
    expect(await partsOf('nightly')).toEqual([]);
    await driver.schedules.put(write({ name: 'other', payload: big }), 0);
    expect(await driver.schedules.remove('other', 1)).toBe(true);
    expect(await partsOf('other')).toEqual([]);
  });

  it('a put that fails before any write of its record could land drops the parts it wrote', async () => {
    const refusing = withJobs(
      onNext(context.jobs, 'get', () => async () => {
        throw new Error('connection refused');
      }),
    );
    const big = { text: 'x'.repeat(SPILL_AT * 2) };
    await expect(putSchedule(refusing, write({ payload: big }), 0)).rejects.toThrow(
      'connection refused',
    );
    expect(await partsOf('nightly')).toEqual([]);
    expect(await driver.schedules.get('nightly')).toBeUndefined();
  });

  it('a process opened later replays the schedules stored, and not the removed ones', async () => {
    for (const name of ['a', 'b', 'c']) await driver.schedules.put(write({ name }), 0);
    await driver.schedules.remove('b', 1);
    const later = await open();
    expect(
      later.index.schedules.list({ tenantId: undefined, after: undefined, limit: 10 }),
    ).toEqual([expect.objectContaining({ name: 'a' }), expect.objectContaining({ name: 'c' })]);
  });

  it('list and due read the mirror, never the bucket key by key', async () => {
    for (let n = 0; n < 20; n += 1) {
      await driver.schedules.put(write({ name: `s${n}`, nextAt: n }), 0);
    }
    let reads = 0;
    const counted = new Proxy(context.jobs, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        if (property === 'get' || property === 'keys' || property === 'watch') reads += 1;
        return value.bind(target);
      },
    });
    const backend = scheduleBackend(
      (_operation, call) =>
        (...args) =>
          call(withJobs(counted), ...args),
    );
    expect(await backend.due({ upTo: 4, limit: 100 })).toHaveLength(5);
    const page = await backend.list({ tenantId: undefined, after: { name: 's5' }, limit: 3 });
    expect(page.map((record) => record.name)).toEqual(['s6', 's7', 's8']);
    expect(reads).toBe(0);
  });
});

import type { ClaimedJob, Driver, EnqueueRequest, JobRecord } from '@berth/core';
import { expect } from 'vitest';
import type { CaseContext, KitCase } from '../../kit.js';
import { fenceOf, freshQueue } from '../fixtures/index.js';

/**
 * Claim order over everything claimable at once, with more due rows in one queue and name than
 * any batch a driver reads or promotes per claim: a claim still takes the highest priority
 * first, then the oldest runAt, then insertion order, whether the row is ready, delayed and due,
 * suspended and due (resumed), or a lapsed lease; and buries lapsed final attempts in that order.
 */

const HOUR = 3_600_000;
const LEASE = 600_000;
const WORKER = 'order-worker';
/** Limits the drain cycles through: single claims and batches of every size between. */
const LIMITS = [1, 1, 4, 1, 23, 2, 1, 90, 3, 1, 300] as const;
/** Every third claim names these (and so skips the third name). */
const NAMED = ['alpha', 'beta'] as const;

type Kind = 'ready' | 'delayed' | 'suspended' | 'lapsed' | 'final';

/** A row as the case made it: what claim order reads of it. */
interface Planned {
  readonly id: string;
  readonly queue: string;
  readonly name: string;
  readonly priority: number;
  readonly runAt: number;
  readonly kind: Kind;
  /** The order the case inserted it in. */
  readonly order: number;
}

/** The contract's claim order. */
const claimOrder = (a: Planned, b: Planned): number =>
  b.priority - a.priority || a.runAt - b.runAt || a.order - b.order;

interface Spec {
  readonly queue: string;
  readonly name: string;
  readonly priority: number;
  readonly runAt: number;
  readonly maxAttempts?: number;
}

/** The rows of a world, and the queues they are in. */
interface World {
  readonly queues: readonly string[];
  readonly rows: Planned[];
}

async function enqueueAll(driver: Driver, world: World, kind: Kind, specs: readonly Spec[]) {
  // A suspended row is enqueued ready (now), claimed, then suspended until its runAt.
  const requests: EnqueueRequest[] = specs.map(({ runAt, ...spec }) =>
    kind === 'suspended' ? spec : { ...spec, runAt },
  );
  const answers = await driver.enqueueMany(requests);
  const made = specs.map((spec, index) => ({
    id: answers[index]?.id ?? '',
    queue: spec.queue,
    name: spec.name,
    priority: spec.priority,
    runAt: spec.runAt,
    kind,
    order: world.rows.length + index,
  }));
  world.rows.push(...made);
  return made;
}

/** Claims exactly `rows` (the only claimable rows of the world), on a lease of `lease` ms. */
async function claimThese(driver: Driver, world: World, rows: readonly Planned[], lease: number) {
  const claimed = await driver.claim({
    queues: world.queues,
    workerId: 'builder',
    visibilityTimeoutMs: lease,
    limit: rows.length,
  });
  expect(claimed.map((job) => job.id).sort()).toEqual(rows.map((row) => row.id).sort());
  return claimed;
}

/** `count` specs from `make(index)`. */
const specs = (count: number, make: (index: number) => Spec): Spec[] =>
  Array.from({ length: count }, (_, index) => make(index));

/**
 * Builds, at t0: lapsed leases (several priorities, runAt long past, lease 1 s, three on their
 * final attempt), 221 suspended rows due at once in one queue and name (the priority-4 one last),
 * 301 delayed rows due in one queue and name (the priority-5 one last), 31 more of a third name
 * (the priority-8 one last), ready rows, and priority-9 rows an hour away. Leaves the clock at
 * t0 + 2 s, where all but the last are claimable.
 */
async function buildWorld({ driver, clock, t0 }: CaseContext): Promise<World> {
  const [qa, qb] = [freshQueue(), freshQueue()] as [string, string];
  const world: World = { queues: [qa, qb], rows: [] };
  const names = ['alpha', 'beta', 'gamma'];
  const lane = (index: number) => ({
    queue: index % 2 === 0 ? qa : qb,
    name: names[index % 3] ?? 'alpha',
  });
  const lapsing = [
    ...(await enqueueAll(
      driver,
      world,
      'lapsed',
      specs(24, (i) => ({
        ...lane(i),
        priority: [0, 6, -1, 3][i % 4] ?? 0,
        runAt: t0 - 60_000 + (i % 5),
      })),
    )),
    ...(await enqueueAll(
      driver,
      world,
      'final',
      specs(3, (i) => ({
        ...lane(i),
        priority: [2, 9, -5][i] ?? 0,
        runAt: t0 - 30_000,
        maxAttempts: 1,
      })),
    )),
  ];
  await claimThese(driver, world, lapsing, 1_000);

  const waiting = [
    ...(await enqueueAll(
      driver,
      world,
      'suspended',
      specs(220, (i) => ({
        queue: qa,
        name: 'beta',
        priority: 0,
        runAt: t0 + 300 + (i % 50),
      })),
    )),
    ...(await enqueueAll(driver, world, 'suspended', [
      { queue: qa, name: 'beta', priority: 4, runAt: t0 + 1_500 },
      { queue: qb, name: 'alpha', priority: 2, runAt: t0 + 1_200 },
    ])),
  ];
  const held = await claimThese(driver, world, waiting, LEASE);
  const until = new Map(waiting.map((row) => [row.id, row.runAt]));
  for (let at = 0; at < held.length; at += 50) {
    const wave = held.slice(at, at + 50);
    const landed = await Promise.all(
      wave.map((job) => driver.suspend(fenceOf(job), { until: until.get(job.id) ?? 0 })),
    );
    expect(landed.every(Boolean)).toBe(true);
  }

  await enqueueAll(driver, world, 'delayed', [
    ...specs(300, (i) => ({ queue: qa, name: 'alpha', priority: 0, runAt: t0 + 100 + (i % 40) })),
    { queue: qa, name: 'alpha', priority: 5, runAt: t0 + 1_800 },
    ...specs(30, (i) => ({ queue: qb, name: 'gamma', priority: 1, runAt: t0 + 50 + i })),
    { queue: qb, name: 'gamma', priority: 8, runAt: t0 + 1_900 },
  ]);
  await enqueueAll(
    driver,
    world,
    'ready',
    specs(40, (i) => ({
      ...lane(i),
      priority: [0, 1, -3, 5][i % 4] ?? 0,
      runAt: t0 - (i % 3) * 1_000,
    })),
  );
  await driver.enqueueMany(
    specs(5, (i) => ({ ...lane(i), priority: 9, runAt: t0 + HOUR })).map((spec) => ({ ...spec })),
  );
  await clock.set(t0 + 2_000);
  return world;
}

/** The first `limit` rows of `rows` a claim of `names` may take, taken out of `rows`. */
function takeFirst(rows: Planned[], limit: number, names?: readonly string[]): Planned[] {
  const taken = rows.filter((row) => names === undefined || names.includes(row.name));
  const first = taken.slice(0, limit);
  for (const row of first) rows.splice(rows.indexOf(row), 1);
  return first;
}

const describe = (rows: readonly (Planned | undefined)[]) =>
  rows.map((row) => (row === undefined ? '?' : `${row.kind}:p${row.priority}:${row.order}`));

/**
 * Drains the world with claims of LIMITS in turn (every third by name), checking each answer,
 * claimed and buried, against the contract's order over what is left.
 */
async function drainInOrder(driver: Driver, world: World): Promise<void> {
  const byId = new Map(world.rows.map((row) => [row.id, row]));
  const claimable = world.rows.filter((row) => row.kind !== 'final').sort(claimOrder);
  const exhausted = world.rows.filter((row) => row.kind === 'final').sort(claimOrder);
  for (let call = 0; claimable.length > 0 || exhausted.length > 0; call += 1) {
    expect(call).toBeLessThan(200);
    const limit = LIMITS[call % LIMITS.length] ?? 1;
    const names = call % 3 === 2 ? NAMED : undefined;
    const buried: JobRecord[] = [];
    const claimed: readonly ClaimedJob[] = await driver.claim({
      queues: world.queues,
      workerId: WORKER,
      visibilityTimeoutMs: LEASE,
      limit,
      ...(names === undefined ? {} : { names }),
      onExhausted: (rows) => buried.push(...rows),
    });
    const expected = takeFirst(claimable, limit, names);
    const where = `claim #${call} (limit ${limit}${names === undefined ? '' : ', named'})`;
    expect(describe(claimed.map((job) => byId.get(job.id))), where).toEqual(describe(expected));
    expect(
      claimed.map((job) => job.id),
      where,
    ).toEqual(expected.map((row) => row.id));
    expect(
      claimed.map((job) => job.resumed),
      where,
    ).toEqual(expected.map((row) => row.kind === 'suspended'));
    const expectedBuried = takeFirst(exhausted, limit, names);
    expect(
      buried.map((job) => job.id),
      where,
    ).toEqual(expectedBuried.map((row) => row.id));
  }
  expect(
    await driver.claim({ queues: world.queues, workerId: WORKER, visibilityTimeoutMs: LEASE }),
  ).toEqual([]);
}

export const claimOrderDueCases: readonly KitCase[] = [
  {
    title:
      'with more rows due at once than any claim batch, every claim takes ready, due delayed, resumed suspended and lapsed rows by priority desc, then runAt, then insertion order, and buries lapsed final attempts in that order',
    timeoutMs: 60_000,
    run: async (context) => {
      const world = await buildWorld(context);
      await drainInOrder(context.driver, world);
    },
  },
];

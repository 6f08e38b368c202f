import type { Driver, Fence, JobRecord } from '@berth/core';
import { isBerthError, registeredErrorCodes } from '@berth/core';
import { expect } from 'vitest';

/**
 * Shared by the screens and fuzz groups: a small stored world every hostile call is tried on,
 * a snapshot of everything a call could change, and the check that a refusal is clean.
 */

export const SCREENS_WORKER = 'kit-screens';

export interface ScreensWorld {
  /** A running row's fence: settles aimed at it would land if the screen let them through. */
  readonly fence: Fence;
  readonly runId: string;
  /** A dead row: purge and requeue would act on it. */
  readonly deadId: string;
  /** A ready row. */
  readonly readyId: string;
}

/** Puts one ready, one running and one dead row, an event, a lease and a step in place. */
export async function makeWorld(driver: Driver): Promise<ScreensWorld> {
  const ready = await driver.enqueue({ name: 'kit.screens', queue: 'screens-ready' });
  const dead = await driver.enqueue({ name: 'kit.screens', queue: 'screens-dead', maxAttempts: 1 });
  const running = await driver.enqueue({ name: 'kit.screens', queue: 'screens-run' });
  const [toKill] = await driver.claim({
    queues: ['screens-dead'],
    workerId: SCREENS_WORKER,
    visibilityTimeoutMs: 60_000,
  });
  if (toKill === undefined) throw new Error('the dead row was not claimed');
  await driver.nack(
    { jobId: toKill.id, workerId: SCREENS_WORKER, claim: toKill.claim },
    { error: { message: 'kit' }, final: true },
  );
  const [job] = await driver.claim({
    queues: ['screens-run'],
    workerId: SCREENS_WORKER,
    visibilityTimeoutMs: 60_000,
  });
  if (job === undefined) throw new Error('the running row was not claimed');
  const fence = { jobId: job.id, workerId: SCREENS_WORKER, claim: job.claim };
  await driver.events.publish('kit.screens.event', { n: 1 });
  await driver.leases.acquire('kit.screens.lease', 'holder-a', 60_000);
  const at = driver.clock.now();
  await driver.steps.put(
    {
      runId: running.runId,
      name: 'first',
      status: 'completed',
      output: 1,
      attempts: 1,
      startedAt: at,
      updatedAt: at,
    },
    fence,
  );
  return { fence, runId: running.runId, deadId: dead.id, readyId: ready.id };
}

/** Everything a refused call must leave as it was. */
export async function snapshot(driver: Driver, world: ScreensWorld): Promise<unknown> {
  const jobs: readonly JobRecord[] = (await driver.list({ limit: 500 })).jobs;
  return {
    jobs,
    stats: await driver.stats(),
    events: await driver.events.list(),
    lease: await driver.leases.holder('kit.screens.lease'),
    steps: await driver.steps.list(world.runId),
  };
}

const CODES = new Set(registeredErrorCodes().map((entry) => entry.code));

/** What a call answered, as comparable data: a value, or a refusal's code and meta. */
export type Outcome =
  | { readonly answered: true }
  | { readonly code: string; readonly meta: unknown };

/**
 * Awaits `call` and checks a refusal is clean: a BerthError of a registered code whose toJSON()
 * serialises, never a raw error. A synchronous throw is as bad as a raw rejection.
 */
export async function outcomeOf(call: () => Promise<unknown> | undefined): Promise<Outcome> {
  try {
    await call();
    return { answered: true };
  } catch (error) {
    if (!isBerthError(error)) {
      throw new Error(`a raw ${String(error)} escaped instead of a BerthError`, { cause: error });
    }
    expect(CODES.has(error.code), `code ${error.code} is registered`).toBe(true);
    const json = JSON.parse(JSON.stringify(error)) as { code: string; meta: unknown };
    expect(json.code).toBe(error.code);
    return { code: error.code, meta: json.meta };
  }
}

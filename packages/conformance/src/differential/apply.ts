import type { EnqueueRequest, Fence, JobRecord } from '@berth/core';
import { type Normalized, normalizeAnswer } from '../normalize.js';
import { applyBackfillOp } from './backfills.js';
import { applyLogOp } from './logs.js';
import { CALLER_IDS, type EnqueueSpec, type Op } from './ops.js';
import { applyPause } from './pause-ops.js';
import { applyScheduleOp } from './schedules.js';
import {
  learnFences,
  learnGivenUp,
  learnJobs,
  learnStates,
  nth,
  targetId,
  type World,
} from './world.js';

/** Said instead of calling when an op names a fence or job the sequence has not made yet. */
const NOTHING_TO_NAME = '(nothing to name yet)';

function request(spec: EnqueueSpec, now: number): EnqueueRequest {
  const callerId = spec.callerId === undefined ? undefined : CALLER_IDS[spec.callerId];
  return {
    name: spec.name,
    payload: { n: spec.n },
    ...(spec.queue === undefined ? {} : { queue: spec.queue }),
    ...(spec.key === undefined ? {} : { idempotencyKey: spec.key }),
    ...(spec.tenant === undefined ? {} : { tenantId: spec.tenant }),
    ...(spec.priority === undefined ? {} : { priority: spec.priority }),
    ...(spec.delayMs === undefined ? {} : { runAt: now + spec.delayMs }),
    ...(callerId === undefined ? {} : { id: callerId }),
    ...(spec.maxAttempts === undefined ? {} : { maxAttempts: spec.maxAttempts }),
    ...(spec.onConflict === undefined ? {} : { onConflict: spec.onConflict }),
    ...(spec.parent === undefined ? {} : { parentId: CALLER_IDS[spec.parent] }),
  };
}

const tenancy = (tenant: string | undefined) => (tenant === undefined ? {} : { tenantId: tenant });

/** Calls the driver as `op` says and answers the raw result; refusals are thrown. */
async function call(world: World, op: Op): Promise<unknown> {
  const { driver, clock } = world;
  const now = clock.now();
  switch (op.kind) {
    case 'enqueue': {
      const result = await driver.enqueue(request(op.request, now));
      learnJobs(world, [result]);
      return result;
    }
    case 'enqueueMany': {
      const results = await driver.enqueueMany(op.requests.map((spec) => request(spec, now)));
      learnJobs(world, results);
      return results;
    }
    case 'claim': {
      const buried: JobRecord[] = [];
      const claimed = await driver.claim({
        queues: op.queues,
        limit: op.limit,
        workerId: op.worker,
        visibilityTimeoutMs: op.vtMs,
        ...(op.drop === undefined ? {} : { dropExhausted: op.drop }),
        ...(op.names === undefined ? {} : { names: op.names }),
        onExhausted: (rows) => buried.push(...rows),
      });
      learnFences(world, claimed);
      return { claimed, buried };
    }
    case 'ack':
    case 'nack':
    case 'suspend':
    case 'extend':
    case 'progress':
    case 'stepPut':
    case 'stepList':
      return fenced(world, op, now);
    case 'ackMany':
    case 'nackMany':
    case 'extendMany': {
      const fences = op.fences.map((at) => nth(world.fences, at));
      if (fences.some((fence) => fence === undefined)) return NOTHING_TO_NAME;
      const known = fences.filter((fence): fence is Fence => fence !== undefined);
      if (op.kind === 'extendMany') return driver.extendMany(known, op.vtMs);
      return op.kind === 'ackMany'
        ? driver.ackMany(known.map((fence) => ({ fence })))
        : driver.nackMany(known.map((fence) => ({ fence, error: { message: 'batch' } })));
    }
    case 'get':
    case 'attempts':
    case 'cancel':
    case 'promote':
    case 'delete':
    case 'requeue': {
      const id = targetId(world, op.target);
      if (id === undefined) return NOTHING_TO_NAME;
      if (op.kind === 'get') return driver.get(id, tenancy(op.tenant));
      if (op.kind === 'attempts') return driver.attempts.list(id, tenancy(op.tenant));
      if (op.kind === 'cancel') return driver.cancel(id, tenancy(op.tenant));
      if (op.kind === 'promote') return driver.promote(id, tenancy(op.tenant));
      if (op.kind === 'delete') return driver.delete(id, tenancy(op.tenant));
      return driver.requeue(id, {
        ...tenancy(op.tenant),
        ...(op.fromStep === undefined ? {} : { fromStep: op.fromStep }),
      });
    }
    case 'list':
      return list(world, op);
    case 'logAppend':
    case 'logList':
      return applyLogOp(world, op, now);
    case 'bfStart':
    case 'bfCommit':
    case 'bfTransition':
    case 'bfGet':
    case 'bfList':
      return applyBackfillOp(driver, op);
    case 'schPut':
    case 'schGet':
    case 'schRemove':
    case 'schList':
    case 'schDue':
      return applyScheduleOp(driver, op, world.t0, now);
    case 'stats':
      return driver.stats();
    case 'purge': {
      const ids = op.targets?.flatMap((target) => targetId(world, target) ?? []);
      if (ids?.length === 0) return NOTHING_TO_NAME;
      return driver.purge({
        states: op.states,
        olderThan: Math.max(0, now + op.olderThanInMs),
        ...(ids === undefined ? {} : { ids }),
      });
    }
    case 'publish':
      return driver.events.publish(
        op.name,
        { n: op.n },
        op.ttlMs === undefined ? {} : { ttl: op.ttlMs },
      );
    case 'find':
      return driver.events.find(op.name, {
        after: Math.max(0, now + op.afterInMs),
        ...(op.match === undefined ? {} : { match: { n: op.match } }),
      });
    case 'eventsList':
      return driver.events.list(op.name);
    case 'purgeEvents':
      return driver.events.purgeExpired();
    case 'acquire':
      return driver.leases.acquire(op.name, op.holder, op.ttlMs);
    case 'renew':
      return driver.leases.renew(op.name, op.holder, op.ttlMs);
    case 'release':
      return driver.leases.release(op.name, op.holder);
    case 'holder':
      return driver.leases.holder(op.name);
    case 'acquireSlot':
      return driver.leases.acquireSlot(op.key, op.limit, op.holder, op.ttlMs);
    case 'renewSlot':
      return driver.leases.renewSlot(op.key, op.holder, op.ttlMs);
    case 'releaseSlot':
      return driver.leases.releaseSlot(op.key, op.holder);
    case 'pause':
    case 'resume':
    case 'pausedList':
      return applyPause(driver, op);
    case 'advance':
      await clock.advance(op.ms);
      return `+${clock.now() - world.t0}`;
  }
}

type FencedOp = Extract<
  Op,
  { kind: 'ack' | 'nack' | 'suspend' | 'extend' | 'progress' | 'stepPut' | 'stepList' }
>;

function fenced(world: World, op: FencedOp, now: number): Promise<unknown> | string {
  const fence = nth(world.fences, op.fence);
  if (fence === undefined) return NOTHING_TO_NAME;
  const { driver } = world;
  switch (op.kind) {
    case 'ack':
      return driver.ack(fence, op.result === undefined ? {} : { result: { r: op.result } });
    case 'nack':
      return driver.nack(fence, {
        error: { code: 'E_DIFF', message: 'boom' },
        ...(op.retryInMs === undefined ? {} : { retryAt: now + op.retryInMs }),
        ...(op.final === undefined ? {} : { final: op.final }),
        ...(op.deadLetter === undefined ? {} : { deadLetter: op.deadLetter }),
        ...(op.cancel === undefined ? {} : { cancel: op.cancel }),
      });
    case 'suspend':
      return driver.suspend(fence, {
        until: now + op.untilInMs,
        ...(op.waitFor === undefined ? {} : { waitFor: op.waitFor }),
      });
    case 'extend':
      return driver.extend(fence, op.vtMs);
    case 'progress':
      return driver.progress(fence, { done: op.done });
    case 'stepList': {
      const runId = world.runIds.get(fence.jobId);
      return runId === undefined ? NOTHING_TO_NAME : driver.steps.list(runId);
    }
    case 'stepPut': {
      // The fenced job's own run: a runId mismatch is a different refusal, not compared here.
      const runId = world.runIds.get(fence.jobId);
      if (runId === undefined) return NOTHING_TO_NAME;
      return driver.steps.put(
        {
          runId,
          name: op.name,
          status: op.status,
          attempts: 1,
          ...(op.status === 'completed'
            ? { output: { step: op.name } }
            : { error: { message: 'step failed' } }),
          startedAt: now,
          updatedAt: now,
        },
        fence,
      );
    }
  }
}

async function list(world: World, op: Extract<Op, { kind: 'list' }>): Promise<unknown> {
  const cursor = op.follow === undefined ? undefined : world.page?.[op.follow];
  const page = await world.driver.list({
    limit: op.limit,
    ...(op.state === undefined ? {} : { state: op.state }),
    ...(op.queue === undefined ? {} : { queue: op.queue }),
    ...(op.name === undefined ? {} : { name: op.name }),
    ...tenancy(op.tenant),
    ...(op.follow === 'next' && cursor !== undefined ? { after: cursor } : {}),
    ...(op.follow === 'prev' && cursor !== undefined ? { before: cursor } : {}),
  });
  world.page = page;
  return page;
}

/** Runs `op` on one side and answers its normalized answer (refusals included). */
export async function applyOp(world: World, op: Op): Promise<Normalized> {
  const context = { labels: world.labels, t0: world.t0, driverName: world.driver.name };
  try {
    const answer = await call(world, op);
    world.refusal = undefined;
    learnStates(world, answer);
    if (op.kind === 'nack' && op.final === true && answer === true) learnGivenUp(world, op);
    return normalizeAnswer(answer, context);
  } catch (error) {
    world.refusal = error;
    return normalizeAnswer(error, context);
  }
}

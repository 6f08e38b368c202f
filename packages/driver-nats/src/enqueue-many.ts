import { randomUUID } from 'node:crypto';
import {
  driverUnavailable,
  type EnqueueResult,
  idTaken,
  jobDuplicate,
  type ScreenedEnqueue,
  sameTenant,
  timeOrderedUuid,
} from '@berth/core/driver';
import { spillJob } from './blobs.js';
import { DRIVER, type NatsContext, writeJob } from './context.js';
import { decideBatch, readSlot, type Slot } from './docs.js';
import { MAX_ROUNDS, newJob } from './enqueue.js';
import { type Holder, liveHolder, readHolder, takeHolder } from './holders.js';
import type { StoredJob } from './record.js';

/** The idempotency namespace as one string: JSON keeps the parts apart. */
const namespace = (request: ScreenedEnqueue): string | undefined =>
  request.idempotencyKey === undefined
    ? undefined
    : JSON.stringify([request.name, request.tenantId ?? null, request.idempotencyKey]);

/** What the batch read before deciding: each caller id's key, each namespace's live holder. */
interface Looked {
  readonly slots: Map<string, Slot>;
  readonly holders: Map<string, Holder & { live: StoredJob | undefined }>;
}

async function look(context: NatsContext, requests: readonly ScreenedEnqueue[]): Promise<Looked> {
  const slots = new Map<string, Slot>();
  const holders = new Map<string, Holder & { live: StoredJob | undefined }>();
  await Promise.all(
    requests.map(async (request) => {
      if (request.id !== undefined && !slots.has(request.id)) {
        slots.set(request.id, { current: undefined, revision: 0 });
        slots.set(request.id, await readSlot(context, request.id, 'abort'));
      }
      const space = namespace(request);
      const { idempotencyKey } = request;
      if (space === undefined || idempotencyKey === undefined || holders.has(space)) return;
      holders.set(space, { id: undefined, revision: 0, live: undefined });
      const holder = await readHolder(context, { ...request, idempotencyKey });
      const live =
        holder.id === undefined ? undefined : await liveHolder(context, request, holder.id);
      holders.set(space, { ...holder, live });
    }),
  );
  return { slots, holders };
}

interface Made {
  readonly job: StoredJob;
  readonly request: ScreenedEnqueue;
  readonly revision: number;
  readonly holder: Holder | undefined;
}

/** The batch's answers and new rows, decided in order as the contract says; throws before writing. */
function plan(
  requests: readonly ScreenedEnqueue[],
  looked: Looked,
  now: number,
): { answers: EnqueueResult[]; rows: Made[] } {
  const answers: EnqueueResult[] = [];
  const rows: Made[] = [];
  const byId = new Map<string, EnqueueResult>();
  const tenantOf = new Map<string, string | undefined>();
  const byKey = new Map<string, EnqueueResult>();
  for (const request of requests) {
    const slot = request.id === undefined ? undefined : looked.slots.get(request.id);
    const sameId = request.id === undefined ? undefined : byId.get(request.id);
    const existing = sameId ?? slot?.current?.job;
    if (existing !== undefined) {
      const holder = sameId === undefined ? slot?.current?.job.tenantId : tenantOf.get(sameId.id);
      if (!sameTenant(holder, request.tenantId)) throw idTaken();
      answers.push({ id: existing.id, runId: existing.runId, deduped: true });
      continue;
    }
    const space = namespace(request);
    const holder = space === undefined ? undefined : looked.holders.get(space);
    const keyHolder = (space === undefined ? undefined : byKey.get(space)) ?? holder?.live;
    if (keyHolder !== undefined) {
      if (request.onConflict === 'error') throw jobDuplicate(request, keyHolder.id);
      answers.push({ id: keyHolder.id, runId: keyHolder.runId, deduped: true });
      continue;
    }
    const job = newJob(request, request.id ?? timeOrderedUuid(now), now);
    const answer = { id: job.id, runId: job.runId, deduped: false };
    byId.set(job.id, answer);
    tenantOf.set(job.id, request.tenantId);
    if (space !== undefined) byKey.set(space, answer);
    rows.push({ job, request, revision: slot?.revision ?? 0, holder });
    answers.push(answer);
  }
  return { answers, rows };
}

/**
 * A batch, all or nothing: every new row is written pending in one batch, each key's holder is
 * pointed at its row, and the batch's decision key commits them all in ONE conditional write.
 * Until it lands no row of the batch is visible; a batch that loses a race (an id or a key taken
 * meanwhile) is aborted and decided again from a fresh look, so a refusal writes nothing visible.
 */
export async function enqueueMany(
  context: NatsContext,
  requests: readonly ScreenedEnqueue[],
): Promise<readonly EnqueueResult[]> {
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const looked = await look(context, requests);
    const { answers, rows } = plan(requests, looked, context.clock.now());
    if (rows.length === 0) return answers;
    const batch = randomUUID();
    const jobs = await Promise.all(rows.map((row) => spillJob(context, row.job)));
    const written = await Promise.all(
      rows.map((row, index) =>
        writeJob(
          context,
          row.job.id,
          { pending: { batch, solo: false, create: jobs[index] as StoredJob } },
          row.revision,
        ),
      ),
    );
    const held =
      written.every((revision) => revision !== undefined) &&
      (
        await Promise.all(
          rows.map(({ request, job, holder }) =>
            request.idempotencyKey === undefined || holder === undefined
              ? true
              : takeHolder(
                  context,
                  { ...request, idempotencyKey: request.idempotencyKey },
                  job.id,
                  holder.revision,
                ),
          ),
        )
      ).every(Boolean);
    if ((await decideBatch(context, batch, held ? 'committed' : 'aborted')) === 'committed') {
      context.wake.publish(rows.map((row) => row.job.queue));
      return answers;
    }
  }
  throw driverUnavailable({
    driver: DRIVER,
    operation: 'enqueue a batch',
    detail: `the batch lost ${MAX_ROUNDS} races in a row to other writers of its ids or keys`,
    fix: 'retry the batch; if it keeps failing, look for writers enqueuing the same ids or keys in a loop',
  });
}

import { LIVE_STATES } from '@berth/core/driver';
import type { NatsContext } from './context.js';
import { readJob } from './docs.js';
import { decodeJson, encodeJson, type StoredJob } from './record.js';
import { writeKey } from './writes.js';

/** The idempotency namespace of a request or a row. */
export interface KeyOf {
  readonly name: string;
  readonly tenantId?: string | undefined;
  readonly idempotencyKey?: string | undefined;
}

/** What a holder key holds: the row it points at, and the namespace (checked, the key is a hash). */
interface HolderDoc {
  readonly id: string;
  readonly name: string;
  readonly tenantId?: string;
  readonly key: string;
}

export interface Holder {
  /** The row the holder points at, when it points at one of this namespace. */
  readonly id: string | undefined;
  /** The holder key's revision (0: never written): a conditional write names it. */
  readonly revision: number;
}

const holderKey = (context: NatsContext, of: KeyOf & { idempotencyKey: string }) =>
  context.subjects.holder(of.name, of.tenantId, of.idempotencyKey);

/**
 * A holder is advisory: it names the row that last took the key, and that row holds the key only
 * while it is LIVE. The row's own record decides; a holder naming a settled or missing row is free.
 */
export async function readHolder(
  context: NatsContext,
  of: KeyOf & { idempotencyKey: string },
): Promise<Holder> {
  const entry = await context.aux.get(holderKey(context, of));
  if (entry === null) return { id: undefined, revision: 0 };
  if (entry.operation !== 'PUT') return { id: undefined, revision: entry.revision };
  const doc = decodeJson<HolderDoc>(entry.value);
  const same =
    doc.name === of.name && doc.tenantId === of.tenantId && doc.key === of.idempotencyKey;
  return { id: same ? doc.id : undefined, revision: entry.revision };
}

/** Points the holder at row `id`, over the revision read; false when another write got there first. */
export async function takeHolder(
  context: NatsContext,
  of: KeyOf & { idempotencyKey: string },
  id: string,
  revision: number,
): Promise<boolean> {
  const doc: HolderDoc = {
    id,
    name: of.name,
    ...(of.tenantId === undefined ? {} : { tenantId: of.tenantId }),
    key: of.idempotencyKey,
  };
  return (
    (await writeKey(context.aux, holderKey(context, of), encodeJson(doc), revision)) !== undefined
  );
}

/**
 * Row `id` when it is LIVE and of the namespace: the key's holder. Met through its holder, a solo
 * row still pending is ready to commit, so this read commits it rather than abort it.
 */
export async function liveHolder(
  context: NatsContext,
  of: KeyOf,
  id: string,
): Promise<StoredJob | undefined> {
  const current = await readJob(context, id, 'commit');
  const job = current?.job;
  if (job === undefined || !LIVE_STATES.has(job.state)) return undefined;
  const same =
    job.name === of.name &&
    job.tenantId === of.tenantId &&
    job.idempotencyKey === of.idempotencyKey;
  return same ? job : undefined;
}

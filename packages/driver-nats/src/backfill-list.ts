import type { BackfillListRequest, BackfillRun } from '@berth/core/driver';
import { byStart, type Ledger, readLedgerKey, type StoredRun } from './backfill-doc.js';
import { answerRuns } from './backfill-heavy.js';
import type { NatsContext } from './context.js';

/** Times a list reads again when a run's cursor or error was replaced while it read. */
const TRIES = 8;

/**
 * The keys of the ledger entries a list reads: the one entry of a name and tenant, or those a
 * key filter matches (one name's, one tenant's, every one). The entries are the `(name, tenant)`
 * pairs ever started, each holding a bounded number of runs, so a list costs what the ledger
 * keeps, never what its history was.
 */
async function entryKeys(context: NatsContext, request: BackfillListRequest): Promise<string[]> {
  const { name, tenantId } = request;
  if (name !== undefined && tenantId !== undefined) {
    return [context.subjects.backfillRuns(name, tenantId)];
  }
  const keys: string[] = [];
  for await (const key of await context.aux.keys(
    context.subjects.backfillEntries({ name, tenantId }),
  )) {
    keys.push(key);
  }
  return keys;
}

const matches = (request: BackfillListRequest, ledger: Ledger, run: StoredRun): boolean =>
  (request.name === undefined || ledger.holder.name === request.name) &&
  (request.tenantId === undefined || ledger.holder.tenantId === request.tenantId) &&
  (request.status === undefined || run.status === request.status);

/** Runs matching every filter, newest start first (then runId desc), at most `limit`. */
export async function listBackfills(
  context: NatsContext,
  request: BackfillListRequest,
): Promise<BackfillRun[]> {
  const keys = await entryKeys(context, request);
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const ledgers = await Promise.all(keys.map((key) => readLedgerKey(context, key)));
    const picked = ledgers
      .flatMap((ledger) =>
        ledger === undefined
          ? []
          : (ledger.doc?.runs ?? [])
              .filter((run) => matches(request, ledger, run))
              .map((run) => ({ holder: ledger.holder, run })),
      )
      .sort((a, b) => byStart(b.run, a.run))
      .slice(0, request.limit);
    const answered = await answerRuns(context, picked);
    if (answered !== undefined) return answered;
  }
  throw new Error(`the backfill ledger kept changing under ${TRIES} lists`);
}

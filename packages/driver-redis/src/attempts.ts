import type {
  AttemptBackend,
  AttemptHistory,
  AttemptOutcome,
  AttemptRecord,
  JobError,
} from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { asArray, asString } from './decode.js';
import { ATTEMPTS_LIST_LUA } from './lua/generated.js';
import { defineScript } from './scripts.js';

const ATTEMPTS_LIST = defineScript('attempts-list', ATTEMPTS_LIST_LUA, { readOnly: true });

/** A record as the scripts store it: numbers as text, error as cjson wrote it. */
interface StoredAttempt {
  readonly seq: string;
  readonly attempt: string;
  readonly claim: string;
  readonly workerId: string;
  readonly claimedAt: string;
  readonly endedAt: string;
  readonly outcome: AttemptOutcome;
  readonly error?: JobError;
}

function attemptOf(text: string): AttemptRecord {
  const stored = JSON.parse(text) as StoredAttempt;
  const record = {
    seq: Number(stored.seq),
    attempt: Number(stored.attempt),
    claim: Number(stored.claim),
    workerId: stored.workerId,
    claimedAt: Number(stored.claimedAt),
    endedAt: Number(stored.endedAt),
    outcome: stored.outcome,
  };
  return stored.error === undefined ? record : { ...record, error: stored.error };
}

/** `driver.attempts`: one read-only script per read. */
export function createAttemptStore(context: RedisContext): AttemptBackend {
  return {
    async list(jobId, options): Promise<AttemptHistory | undefined> {
      const reply = asArray(
        await context.run(ATTEMPTS_LIST, context.clock.now(), [jobId, options.tenantId ?? '']),
        'attempts',
      );
      if (reply[0] === 'missing') return undefined;
      const records = reply.slice(1).map((row) => attemptOf(asString(row, 'attempts')));
      const last = records.at(-1);
      return { records, dropped: last === undefined ? 0 : last.seq - records.length };
    },
  };
}

import { createHash } from 'node:crypto';
import type { PgResult } from './executor.js';
import type { Statements } from './sql/index.js';

/** pg's query config with a name: each connection parses the text once, then only binds it. */
export interface NamedQuery {
  readonly name: string;
  readonly text: string;
  readonly values: unknown[];
}

/** Sends a named query (a `pg.Pool` or `pg.Client` does). */
export type SendNamed = (query: NamedQuery) => Promise<PgResult>;

/** What `createDb` needs to send some statements as prepared ones. */
export interface Prepared {
  /** Statement text → its prepared name. */
  readonly names: ReadonlyMap<string, string>;
  readonly send: SendNamed;
}

/**
 * The statements of an idle worker's enqueue → claim path, sent prepared: each connection parses
 * them once, then only binds them. Both plan alike for any arguments (the enqueue probes by key
 * alone; the claim calls claim_jobs_v2, whose own statements are planned once per session), so
 * any pool may prepare them. Only fixed texts are named (a connection keeps each one).
 */
const hot = (sql: Statements): Record<string, string> => ({
  enqueue: sql.enqueue.insert,
  claim: sql.claim,
});

/**
 * Names carry a hash of the text: two drivers on one pool (two schemas, two versions) never
 * share a name for different texts, which pg refuses.
 */
export function preparedNames(sql: Statements): Map<string, string> {
  const names = new Map<string, string>();
  for (const [key, text] of Object.entries(hot(sql))) {
    const digest = createHash('sha256').update(text).digest('hex').slice(0, 16);
    names.set(text, `berth_${key}_${digest}`);
  }
  return names;
}

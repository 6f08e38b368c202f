import { configInvalid } from '@berth/core/driver';

/** Short enough that `<schema>_settle`, the longest NOTIFY channel, stays within 63 bytes. */
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,47}$/;

/** The schema Berth's tables live in unless the options name another. */
export const DEFAULT_SCHEMA = 'berth';

/**
 * The schema is the one name spliced into statement text (identifiers cannot be bound), so it is
 * held to a plain identifier and quoted; every value is a bound parameter.
 */
export function quoteSchema(schema: string): string {
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema)) {
    throw configInvalid({
      option: 'schema',
      reason: `is ${JSON.stringify(schema)}, not a plain identifier`,
      allowed:
        'must be a plain identifier: a letter or _, then letters, digits or _, at most 48 characters',
      example: "createPgDriver({ connectionString, schema: 'berth_jobs' })",
    });
  }
  return `"${schema}"`;
}

/** The channel every wake NOTIFY of this schema goes to. */
export const wakeChannel = (schema: string): string => `${schema}_wake`;

/**
 * The channel a cancel of a running job is told on: its payload is the job's id (a uuid, 36
 * characters) followed by its queue, so no queue name can be mistaken for anything else.
 */
export const cancelChannel = (schema: string): string => `${schema}_cancel`;

/**
 * The channel the ids of settled jobs are told on (`watchSettles`): ids joined by commas, up to
 * IDS_PER_NOTICE a payload (see settle-notice.ts).
 */
export const settleChannel = (schema: string): string => `${schema}_settle`;

import { isJobState, jobInvalid, type ListRequest } from '@berth/core';
import type { PayloadMatch, PayloadSearchResponse } from '../enqueue-search-types.js';
import { queryText, type RequestContext } from '../http/context.js';
import { ProblemError } from '../http/respond.js';
import { matchPayload, PayloadPathError, parsePayloadQuery } from './payload-path.js';
import { toSummary } from './views.js';

/** Most jobs one search request reads: its cost never grows with the backlog. */
export const MAX_PAYLOAD_SCAN = 1_000;
/** Rows one list call of the search reads; the search stops only between pages. */
export const PAYLOAD_SEARCH_PAGE = 100;
/** Matches a request asks for by default, and at most. */
export const DEFAULT_PAYLOAD_MATCHES = 25;
export const MAX_PAYLOAD_MATCHES = 100;
/** How much of the value found at the path an answer carries, as JSON text. */
const VALUE_LENGTH = 160;

function bounded(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const given = queryText(query, name);
  if (given === undefined) return fallback;
  const value = Number(given);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw jobInvalid(name, `must be an integer from 1 to ${max}`);
  }
  return value;
}

const cut = (value: string): string =>
  value.length > VALUE_LENGTH ? `${value.slice(0, VALUE_LENGTH - 1)}…` : value;

function parseWhere(where: string | undefined) {
  try {
    return parsePayloadQuery(where ?? '');
  } catch (error) {
    if (!(error instanceof PayloadPathError)) throw error;
    throw new ProblemError(400, {
      code: 'PAYLOAD_PATH_INVALID',
      message: `where: ${error.message} (at character ${error.at + 1})`,
      fix: 'Write a path from $ and, optionally, an operator and a JSON value: $.user.id == 42, $.email == "ada@example.com", $.items[0].sku, $["a key"] != null. The README\'s "Payload search" lists the syntax.',
    });
  }
}

/**
 * Jobs whose payload matches a path expression, found by walking the driver's `list` pages
 * (newest first, with the jobs table's filters) over at most `scan` jobs (MAX_PAYLOAD_SCAN).
 * It stops between pages once it has `limit` matches; `next` continues after the last job read.
 */
export async function searchPayloads(context: RequestContext): Promise<PayloadSearchResponse> {
  const { query } = context;
  const where = queryText(query, 'where');
  const parsed = parseWhere(where);
  const state = queryText(query, 'state');
  if (state !== undefined && !isJobState(state)) throw jobInvalid('state', 'is not a job state');
  const wanted = bounded(query, 'limit', DEFAULT_PAYLOAD_MATCHES, MAX_PAYLOAD_MATCHES);
  const scanLimit = bounded(query, 'scan', MAX_PAYLOAD_SCAN, MAX_PAYLOAD_SCAN);
  // A scoped dashboard ignores the tenant filter, as the jobs table does.
  const filters = {
    state,
    queue: queryText(query, 'queue'),
    name: queryText(query, 'name'),
    tenantId: context.tenantId ?? queryText(query, 'tenant'),
  };
  const jobs: PayloadMatch[] = [];
  let scanned = 0;
  let after = queryText(query, 'after');
  let more = true;
  while (scanned < scanLimit && jobs.length < wanted) {
    const request: ListRequest = { limit: Math.min(PAYLOAD_SEARCH_PAGE, scanLimit - scanned) };
    for (const [key, value] of Object.entries({ ...filters, after })) {
      if (value !== undefined) Object.assign(request, { [key]: value });
    }
    const page = await context.options.driver.list(request);
    scanned += page.jobs.length;
    for (const job of page.jobs) {
      const found = matchPayload(parsed, job.payload);
      if (found !== undefined) {
        jobs.push({ ...toSummary(job), value: cut(JSON.stringify(found.value)) });
      }
    }
    after = page.next;
    if (after === undefined) {
      more = false;
      break;
    }
  }
  return {
    where: where ?? '',
    jobs,
    scanned,
    scanLimit,
    ...(more && after !== undefined ? { next: after } : {}),
  };
}

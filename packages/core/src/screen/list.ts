import type { ScreenedList } from '../contract/driver.js';
import { DEFAULT_JOB_PAGE, MAX_JOB_PAGE } from '../contract/limits.js';
import type { ListRequest } from '../contract/records.js';
import { isJobState } from '../contract/states.js';
import { jobInvalid, jobPageInvalid } from '../errors/refusals.js';
import type { CursorCodec } from './cursor.js';
import { screening, screenObject, screenOptionalName } from './values.js';

export const screenList = screening('list request', listRequest);

/** The request's filters, limit and cursor, the cursor checked against those filters. */
function listRequest(request: ListRequest | undefined, cursors: CursorCodec): ScreenedList {
  const input = screenObject('list request', request ?? {});
  if (input.state !== undefined && !isJobState(input.state)) {
    throw jobInvalid('state', 'is not a job state');
  }
  const limit = input.limit ?? DEFAULT_JOB_PAGE;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_JOB_PAGE) {
    throw jobPageInvalid('limit', limit);
  }
  if (input.after !== undefined && input.before !== undefined) throw jobPageInvalid('both-cursors');
  const filters = {
    state: input.state as ScreenedList['state'],
    queue: screenOptionalName('queue', input.queue),
    name: screenOptionalName('name', input.name),
    tenantId: screenOptionalName('tenantId', input.tenantId),
  };
  return {
    ...filters,
    limit,
    after: input.after === undefined ? undefined : cursors.decode(input.after, filters, 'after'),
    before:
      input.before === undefined ? undefined : cursors.decode(input.before, filters, 'before'),
  };
}

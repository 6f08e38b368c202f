import { type Driver, type JobRecord, type ListRequest, MAX_JOB_PAGE } from '@berth/core';

/** Every job a list filter matches, one full page (MAX_JOB_PAGE) at a time. */
export async function* everyListed(
  driver: Driver,
  filter: Omit<ListRequest, 'limit' | 'after' | 'before'>,
): AsyncGenerator<JobRecord> {
  let after: string | undefined;
  do {
    const page = await driver.list({
      ...filter,
      limit: MAX_JOB_PAGE,
      ...(after === undefined ? {} : { after }),
    });
    yield* page.jobs;
    after = page.next;
  } while (after !== undefined);
}

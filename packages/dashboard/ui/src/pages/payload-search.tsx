import type { PayloadSearchResponse } from '../../../src/enqueue-search-types';
import { getJson } from '../api';
import { Instant } from '../components/instant';
import { JobIdCell } from '../components/job-id';
import { Loading, Problem } from '../components/problem';
import { StateBadge } from '../components/state-badge';
import { distinguishingTails } from '../id-tail';
import { Link, withQuery } from '../router';
import { usePoll } from '../use-poll';
import { Filters } from './jobs';

/** What the search keeps from the jobs view's query: its filters, the expression, the cursor. */
const KEPT = ['state', 'queue', 'name', 'tenant', 'where'] as const;

const keep = (query: URLSearchParams): Record<string, string | undefined> =>
  Object.fromEntries(KEPT.map((name) => [name, query.get(name) ?? undefined]));

/** "Scanned the newest 1,000 jobs: 3 match — continue with older jobs". */
function SearchWindow({
  query,
  answer,
}: {
  readonly query: URLSearchParams;
  readonly answer: PayloadSearchResponse;
}) {
  const matches = answer.jobs.length;
  const count = answer.scanned.toLocaleString();
  const jobs = answer.scanned === 1 ? 'job' : 'jobs';
  return (
    <div class="search-window" aria-live="polite">
      <p data-testid="search-window">
        {query.has('after')
          ? `Scanned ${count} older ${jobs}`
          : `Scanned the newest ${count} ${jobs}`}
        : {matches.toLocaleString()} {matches === 1 ? 'matches' : 'match'}
        {answer.next === undefined ? '; no older jobs to scan.' : ' — '}
        {answer.next === undefined ? null : (
          <Link to={withQuery('/jobs', { ...keep(query), after: answer.next })} rel="next">
            continue with older jobs
          </Link>
        )}
      </p>
      {query.has('after') ? <Link to={withQuery('/jobs', keep(query))}>Back to newest</Link> : null}
    </div>
  );
}

/**
 * The jobs view with a payload condition: a search over at most `scanLimit` jobs per request
 * (newest first, with the other filters), never the whole backlog; the page says how many it
 * read and offers the next window.
 */
export function PayloadSearchPage({ query }: { readonly query: URLSearchParams }) {
  const key = query.toString();
  // Not polled: each request reads up to a thousand jobs, so it runs when asked.
  const { data, error } = usePoll(
    `payload-search?${key}`,
    () => getJson<PayloadSearchResponse>('/payload-search', query),
    false,
  );
  const tails = distinguishingTails(data?.jobs.map((job) => job.id) ?? []);
  return (
    <section aria-labelledby="jobs-title">
      <h1 id="jobs-title">Jobs</h1>
      <Filters query={query} />
      {error ? <Problem error={error} /> : null}
      {data === undefined ? (
        error ? null : (
          <Loading />
        )
      ) : (
        <>
          <SearchWindow query={query} answer={data} />
          {data.jobs.length === 0 ? null : (
            <div class="table-wrap">
              <table class="jobs">
                <caption class="visually-hidden">
                  Jobs whose payload matches {data.where}, newest first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Id</th>
                    <th scope="col">Name</th>
                    <th scope="col">Queue</th>
                    <th scope="col">State</th>
                    <th scope="col">Created</th>
                    <th scope="col">Value at the path</th>
                  </tr>
                </thead>
                <tbody>
                  {data.jobs.map((job) => (
                    <tr key={job.id} data-job-id={job.id}>
                      <td>
                        <JobIdCell id={job.id} tail={tails.get(job.id) ?? job.id} />
                      </td>
                      <td>{job.name}</td>
                      <td>{job.queue}</td>
                      <td>
                        <StateBadge state={job.state} />
                      </td>
                      <td>
                        <Instant at={job.createdAt} />
                      </td>
                      <td class="match-value mono">{job.value}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}

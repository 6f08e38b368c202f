import { useState } from 'preact/hooks';
import type { JobsResponse, State } from '../../../src/api-types';
import { getJson } from '../api';
import { Instant } from '../components/instant';
import { JobIdCell } from '../components/job-id';
import { PayloadWhereField } from '../components/payload-where-field';
import { Loading, Problem } from '../components/problem';
import { StateBadge } from '../components/state-badge';
import { config } from '../config';
import { distinguishingTails } from '../id-tail';
import { Link, navigate, withQuery } from '../router';
import { usePoll } from '../use-poll';
import { BulkActions } from './jobs-bulk';

const STATES: readonly State[] = [
  'ready',
  'delayed',
  'running',
  'suspended',
  'completed',
  'failed',
  'dead',
  'cancelled',
];
const FILTERS = ['state', 'queue', 'name', 'tenant', 'limit', 'where'] as const;

/** Uncontrolled fields, keyed by the query: a refresh never undoes what the user is typing. */
export function Filters({ query }: { readonly query: URLSearchParams }) {
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const entries: Record<string, string | undefined> = {};
    for (const name of FILTERS) entries[name] = String(form.get(name) ?? '').trim() || undefined;
    // New filters start from the newest row: a cursor belongs to the filters that made it.
    navigate(withQuery('/jobs', entries));
  };
  const value = (name: string) => query.get(name) ?? '';
  return (
    <form class="filters" onSubmit={onSubmit} key={query.toString()} aria-label="Filter jobs">
      <label>
        State
        <select name="state">
          <option value="">any</option>
          {STATES.map((state) => (
            <option key={state} value={state} selected={value('state') === state}>
              {state}
            </option>
          ))}
        </select>
      </label>
      <label>
        Queue
        <input name="queue" defaultValue={value('queue')} autoComplete="off" />
      </label>
      <label>
        Name
        <input name="name" defaultValue={value('name')} autoComplete="off" />
      </label>
      {config.tenant === null ? (
        <label>
          Tenant
          <input name="tenant" defaultValue={value('tenant')} autoComplete="off" />
        </label>
      ) : null}
      <PayloadWhereField value={value('where')} />
      <label>
        Per page
        <select name="limit">
          {['10', '25', '50', '100'].map((size) => (
            <option key={size} value={size} selected={(value('limit') || '25') === size}>
              {size}
            </option>
          ))}
        </select>
      </label>
      <div class="filter-actions">
        <button type="submit" class="primary">
          Apply
        </button>
        <Link to="/jobs" class="button">
          Clear
        </Link>
      </div>
    </form>
  );
}

function Pager({ query, page }: { readonly query: URLSearchParams; readonly page: JobsResponse }) {
  const at = (cursor: { after?: string; before?: string }) => {
    const entries: Record<string, string | undefined> = {};
    for (const name of FILTERS) entries[name] = query.get(name) ?? undefined;
    return withQuery('/jobs', { ...entries, ...cursor });
  };
  return (
    <nav class="pager" aria-label="Pages">
      {page.prev === undefined ? (
        <span class="button disabled" aria-disabled="true">
          ← Newer
        </span>
      ) : (
        <Link to={at({ before: page.prev })} class="button" rel="prev">
          ← Newer
        </Link>
      )}
      {page.next === undefined ? (
        <span class="button disabled" aria-disabled="true">
          Older →
        </span>
      ) : (
        <Link to={at({ after: page.next })} class="button" rel="next">
          Older →
        </Link>
      )}
    </nav>
  );
}

export function JobsPage({ query }: { readonly query: URLSearchParams }) {
  const key = query.toString();
  const { data, error, reload } = usePoll(`jobs?${key}`, () =>
    getJson<JobsResponse>('/jobs', query),
  );
  const tails = distinguishingTails(data?.jobs.map((job) => job.id) ?? []);
  // Ticked ids, per page: another filter or page starts with none.
  const [ticked, setTicked] = useState<{ key: string; ids: ReadonlySet<string> }>({
    key,
    ids: new Set(),
  });
  const selected = ticked.key === key ? ticked.ids : new Set<string>();
  const shown = data?.jobs.map((job) => job.id) ?? [];
  const onPage = shown.filter((id) => selected.has(id));
  const tick = (ids: readonly string[], on: boolean) => {
    const next = new Set(selected);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    setTicked({ key, ids: next });
  };
  const selectable = !config.readOnly;
  return (
    <section aria-labelledby="jobs-title">
      <h1 id="jobs-title">Jobs</h1>
      <Filters query={query} />
      {error ? <Problem error={error} /> : null}
      {data === undefined ? (
        error ? null : (
          <Loading />
        )
      ) : data.jobs.length === 0 ? (
        <p class="muted">No job matches these filters.</p>
      ) : (
        <>
          {selectable ? (
            <BulkActions
              selected={onPage}
              onDone={async () => {
                setTicked({ key, ids: new Set() });
                await reload();
              }}
            />
          ) : null}
          <div class="table-wrap">
            <table class="jobs">
              <caption class="visually-hidden">Jobs, newest first</caption>
              <thead>
                <tr>
                  {selectable ? (
                    <th scope="col" class="tick">
                      <input
                        type="checkbox"
                        aria-label="Select every job on this page"
                        checked={shown.length > 0 && onPage.length === shown.length}
                        onChange={(event) => tick(shown, event.currentTarget.checked)}
                      />
                    </th>
                  ) : null}
                  <th scope="col">Id</th>
                  <th scope="col">Name</th>
                  <th scope="col">Queue</th>
                  <th scope="col">State</th>
                  <th scope="col" class="num">
                    Attempts
                  </th>
                  <th scope="col">Created</th>
                  <th scope="col" class="wide">
                    Last error
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.jobs.map((job) => (
                  <tr key={job.id} data-job-id={job.id}>
                    {selectable ? (
                      <td class="tick">
                        <input
                          type="checkbox"
                          aria-label={`Select job ${job.id}`}
                          checked={selected.has(job.id)}
                          onChange={(event) => tick([job.id], event.currentTarget.checked)}
                        />
                      </td>
                    ) : null}
                    <td>
                      <JobIdCell id={job.id} tail={tails.get(job.id) ?? job.id} />
                    </td>
                    <td>{job.name}</td>
                    <td>{job.queue}</td>
                    <td>
                      <StateBadge state={job.state} />
                    </td>
                    <td class="num">
                      {job.attempts}/{job.maxAttempts}
                    </td>
                    <td>
                      <Instant at={job.createdAt} />
                    </td>
                    <td class="wide error-text">
                      {job.errorCode ? <code>{job.errorCode}</code> : null} {job.errorMessage ?? ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager query={query} page={data} />
        </>
      )}
    </section>
  );
}

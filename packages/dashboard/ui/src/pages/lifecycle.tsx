import { useState } from 'preact/hooks';
import type { LifecycleEventView } from '../../../src/lifecycle-types';
import { Instant } from '../components/instant';
import { JobIdCell } from '../components/job-id';
import { Loading, Problem } from '../components/problem';
import { config } from '../config';
import { formatDuration } from '../format';
import { distinguishingTails } from '../id-tail';
import { Link, navigate, withQuery } from '../router';
import {
  KEPT_EVENTS,
  type TailFilters,
  type TailView,
  useLifecycleTail,
} from '../use-lifecycle-tail';
import './lifecycle.css';

const filtersOf = (query: URLSearchParams): TailFilters => ({
  queue: query.get('queue') ?? '',
  name: query.get('name') ?? '',
  from: query.get('from') === 'oldest' ? 'oldest' : 'end',
});

/** Uncontrolled fields, keyed by the query: new filters are a new URL, so a new tail. */
function Filters({ filters }: { readonly filters: TailFilters }) {
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const field = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    navigate(
      withQuery('/lifecycle', {
        queue: field('queue'),
        name: field('name'),
        from: field('from') === 'oldest' ? 'oldest' : undefined,
      }),
    );
  };
  return (
    <form
      class="filters"
      onSubmit={onSubmit}
      key={JSON.stringify(filters)}
      aria-label="Filter lifecycle events"
    >
      <label>
        Queue
        <input name="queue" defaultValue={filters.queue} autoComplete="off" />
      </label>
      <label>
        Name
        <input name="name" defaultValue={filters.name} autoComplete="off" />
      </label>
      <label>
        Start from
        <select name="from">
          <option value="end" selected={filters.from === 'end'}>
            now (new events only)
          </option>
          <option value="oldest" selected={filters.from === 'oldest'}>
            the oldest kept
          </option>
        </select>
      </label>
      <div class="filter-actions">
        <button type="submit" class="primary">
          Apply
        </button>
        <Link to="/lifecycle" class="button">
          Clear
        </Link>
      </div>
    </form>
  );
}

/** "queue mail, name email.send", or "every queue and name". */
function scopeOf(filters: TailFilters): string {
  const parts = [
    filters.queue === '' ? '' : `queue ${filters.queue}`,
    filters.name === '' ? '' : `name ${filters.name}`,
  ].filter((part) => part !== '');
  return parts.length === 0 ? 'every queue and name' : parts.join(', ');
}

function Status({
  view,
  filters,
  paused,
}: {
  readonly view: TailView;
  readonly filters: TailFilters;
  readonly paused: boolean;
}) {
  const state = paused
    ? 'Paused: no new events are read until you resume'
    : view.caughtUp
      ? `Up to date · ${scopeOf(filters)}`
      : 'Catching up…';
  const kept =
    view.seen > KEPT_EVENTS ? `; the newest ${KEPT_EVENTS} of ${view.seen} read are shown` : '';
  return (
    <p class="muted small" role="status" data-testid="lifecycle-status">
      {state}. Read every {formatDuration(config.refreshMs)}
      {filters.from === 'oldest' ? ', from the oldest event kept' : ', from when the page opened'}
      {kept}.
    </p>
  );
}

function EventsTable({ events }: { readonly events: readonly LifecycleEventView[] }) {
  const tails = distinguishingTails(events.map((event) => event.jobId));
  return (
    <div class="table-wrap">
      <table class="lifecycle">
        <caption class="visually-hidden">Lifecycle events, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Type</th>
            <th scope="col">Job</th>
            <th scope="col">Name</th>
            <th scope="col">Queue</th>
            <th scope="col" class="num">
              Attempt
            </th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.position} data-job-id={event.jobId} data-type={event.type}>
              <td>
                <Instant at={event.at} />
              </td>
              <td>
                <span class={`badge lifecycle-${event.type}`}>{event.type}</span>
              </td>
              <td>
                <JobIdCell id={event.jobId} tail={tails.get(event.jobId) ?? event.jobId} />
              </td>
              <td>{event.name}</td>
              <td>{event.queue}</td>
              <td class="num">{event.attempt}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A live view of the lifecycle stream: what happens to jobs, as it happens, newest first. */
export function LifecyclePage({ query }: { readonly query: URLSearchParams }) {
  const filters = filtersOf(query);
  const key = JSON.stringify(filters);
  // Paused for these filters only: new filters start a new tail, reading.
  const [pausedFor, setPausedFor] = useState<string | undefined>(undefined);
  const paused = pausedFor === key;
  const { view, error } = useLifecycleTail(filters, paused);
  return (
    <section aria-labelledby="lifecycle-title">
      <h1 id="lifecycle-title">Lifecycle</h1>
      <Filters filters={filters} />
      <div class="toolbar">
        <button
          type="button"
          aria-pressed={paused}
          onClick={() => setPausedFor(paused ? undefined : key)}
        >
          {paused ? 'Resume' : 'Pause'}
        </button>
      </div>
      {error ? <Problem error={error} /> : null}
      {view === undefined ? (
        error ? null : (
          <Loading />
        )
      ) : (
        <>
          <Status view={view} filters={filters} paused={paused} />
          {view.events.length === 0 ? (
            <p class="muted">No events yet: they appear here as jobs are claimed and settle.</p>
          ) : (
            <EventsTable events={view.events} />
          )}
        </>
      )}
    </section>
  );
}

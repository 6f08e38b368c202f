import type { EventsResponse } from '../../../src/api-types';
import { getJson } from '../api';
import { Instant } from '../components/instant';
import { JsonView } from '../components/json-view';
import { Loading, Problem } from '../components/problem';
import { config } from '../config';
import { Link, withQuery } from '../router';
import { usePoll } from '../use-poll';

export function EventsPage({ query }: { readonly query: URLSearchParams }) {
  const name = query.get('name') ?? '';
  const { data, error } = usePoll(`events:${name}`, () =>
    getJson<EventsResponse>('/events', query),
  );
  return (
    <section aria-labelledby="events-title">
      <h1 id="events-title">Events</h1>
      {config.tenant !== null ? (
        <p class="muted">Events carry no tenant, so a tenant-scoped dashboard shows none.</p>
      ) : null}
      {error ? <Problem error={error} /> : null}
      {data === undefined ? (
        error ? null : (
          <Loading />
        )
      ) : (
        <>
          <nav class="chips" aria-label="Event names">
            <Link to="/events" class="chip" aria-current={name === '' ? 'page' : undefined}>
              all
            </Link>
            {data.names.map((entry) => (
              <Link
                key={entry.name}
                class="chip"
                to={withQuery('/events', { name: entry.name })}
                aria-current={name === entry.name ? 'page' : undefined}
              >
                {entry.name} <span class="muted">({entry.count})</span>
              </Link>
            ))}
          </nav>
          <p class="muted small">
            {data.total.toLocaleString()} live {data.total === 1 ? 'event' : 'events'}
            {data.total > data.limit ? `; the newest ${data.limit} are shown` : ''}.
          </p>
          {data.events.length === 0 ? (
            <p class="muted">No live events.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Published</th>
                    <th scope="col">Expires</th>
                    <th scope="col" class="wide">
                      Payload
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.events.map((event) => (
                    <tr key={event.id}>
                      <td>{event.name}</td>
                      <td>
                        <Instant at={event.publishedAt} />
                      </td>
                      <td>
                        <Instant at={event.expiresAt} />
                      </td>
                      <td class="wide">
                        <JsonView value={event.payload} label={`Payload of ${event.name}`} />
                      </td>
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

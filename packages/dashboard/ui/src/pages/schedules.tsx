import { useState } from 'preact/hooks';
import type { SchedulesResponse, ScheduleView, StoredScheduleView } from '../../../src/api-types';
import { getJson } from '../api';
import { Instant } from '../components/instant';
import { Loading, Problem } from '../components/problem';
import { StateBadge } from '../components/state-badge';
import { StoredScheduleActions } from '../components/stored-schedule-actions';
import { config } from '../config';
import { Link, withQuery } from '../router';
import { usePoll } from '../use-poll';

function Leader({ data }: { readonly data: SchedulesResponse }) {
  return (
    <p class="notice info" data-testid="leader">
      Leader lease <code>{data.leaseName}</code>:{' '}
      {data.leader === null ? (
        'no scheduler holds it now.'
      ) : (
        <>
          held by <code>{data.leader.holder}</code> until <Instant at={data.leader.expiresAt} />.
        </>
      )}
    </p>
  );
}

/** The schedules page: the app's schedules in code, then those the driver stores. */
export function SchedulesPage({ query }: { readonly query: URLSearchParams }) {
  const key = query.toString();
  const { data, error, reload } = usePoll(`schedules?${key}`, () =>
    getJson<SchedulesResponse>('/schedules', query),
  );
  const [done, setDone] = useState('');
  const onDone = async (message: string) => {
    setDone(message);
    await reload();
  };
  return (
    <section aria-labelledby="schedules-title">
      <h1 id="schedules-title">Schedules</h1>
      {error ? <Problem error={error} /> : null}
      {data === undefined ? (
        error ? null : (
          <Loading />
        )
      ) : (
        <>
          <Leader data={data} />
          <h2 id="code-schedules-title">Schedules in code</h2>
          {!data.configured ? (
            <p class="muted">
              No schedules were given to this dashboard: pass the app's schedules as{' '}
              <code>createDashboard({'{ schedules }'})</code>.
            </p>
          ) : data.schedules.length === 0 ? (
            <p class="muted">No schedule is visible here.</p>
          ) : (
            <div class="table-wrap">
              <table aria-labelledby="code-schedules-title">
                <thead>
                  <tr>
                    <th scope="col">Schedule</th>
                    <th scope="col">Cron</th>
                    <th scope="col">Job</th>
                    <th scope="col">Next slots</th>
                    <th scope="col">Last slot</th>
                  </tr>
                </thead>
                <tbody>
                  {data.schedules.map((schedule) => (
                    <tr key={schedule.name}>
                      <th scope="row">{schedule.name}</th>
                      <td>
                        <code>{schedule.cron}</code> <span class="muted">{schedule.timezone}</span>
                      </td>
                      <td>
                        {schedule.job}
                        {schedule.queue ? <span class="muted"> on {schedule.queue}</span> : null}
                      </td>
                      <td>
                        {schedule.error ? (
                          <span class="error-text">{schedule.error}</span>
                        ) : (
                          <ul class="plain">
                            {schedule.next.map((slot) => (
                              <li key={slot}>
                                <Instant at={slot} />
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                      <td>
                        <LastSlot last={schedule.last} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h2 id="stored-schedules-title">Stored schedules</h2>
          <div aria-live="polite">{done ? <p class="notice info">{done}</p> : null}</div>
          <StoredSchedules data={data} query={query} onDone={onDone} />
        </>
      )}
    </section>
  );
}

/** A schedule's last enqueued slot and its job's state, linked to the job while it is stored. */
function LastSlot({ last }: { readonly last: ScheduleView['last'] }) {
  if (last === null) return <span class="muted">—</span>;
  return (
    <>
      <Instant at={last.slot} />{' '}
      {last.state === null ? (
        <span class="muted">(no job stored)</span>
      ) : (
        <Link to={`/jobs/${last.jobId}`}>
          <StateBadge state={last.state} />
        </Link>
      )}
    </>
  );
}

/** The rows of one stored schedule: what it runs, when next, and its actions. */
function StoredRow({
  schedule,
  onDone,
}: {
  readonly schedule: StoredScheduleView;
  readonly onDone: (message: string) => Promise<void>;
}) {
  return (
    <tr>
      <th scope="row">{schedule.name}</th>
      <td>{schedule.tenantId ?? <span class="muted">—</span>}</td>
      <td>
        <code>{schedule.cron}</code>
      </td>
      <td>{schedule.timezone ?? 'UTC'}</td>
      <td>{schedule.job}</td>
      <td>{schedule.queue ?? <span class="muted">default</span>}</td>
      <td data-testid="stored-state">
        {schedule.paused ? (
          <span class="badge paused" title="schedulers enqueue none of its slots until a resume">
            paused
          </span>
        ) : (
          <span class="muted">active</span>
        )}
      </td>
      <td>
        {schedule.paused ? (
          <span class="muted">— (a resume starts at the next slot)</span>
        ) : (
          <>
            <ul class="plain">
              {schedule.next.map((slot) => (
                <li key={slot}>
                  <Instant at={slot} />
                </li>
              ))}
            </ul>
            {schedule.error ? <span class="error-text">{schedule.error}</span> : null}
          </>
        )}
      </td>
      <td data-testid="stored-last">
        <LastSlot last={schedule.last} />
      </td>
      <td class="num">{schedule.revision}</td>
      {config.readOnly ? null : (
        <td class="stored-actions">
          <StoredScheduleActions schedule={schedule} onDone={onDone} />
        </td>
      )}
    </tr>
  );
}

/** A page of the stored schedules, by name then tenant, with a link to the next page. */
function StoredSchedules({
  data,
  query,
  onDone,
}: {
  readonly data: SchedulesResponse;
  readonly query: URLSearchParams;
  readonly onDone: (message: string) => Promise<void>;
}) {
  const { stored } = data;
  const paged = query.get('after') !== null;
  const more = stored.next;
  const tenant = query.get('tenant') ?? undefined;
  return (
    <>
      {stored.schedules.length === 0 ? (
        <p class="muted">
          {paged ? 'No more stored schedules.' : 'No schedule is stored'}
          {paged ? null : (
            <>
              : an app stores one with <code>client.schedules.upsert({'{ … }'})</code>, and every
              running scheduler enqueues its slots from its next tick.
            </>
          )}
        </p>
      ) : (
        <>
          <p class="muted small">
            By name, then tenant, {stored.limit} a page. Schedulers pick up a change at their next
            tick.
          </p>
          <div class="table-wrap">
            <table aria-labelledby="stored-schedules-title">
              <thead>
                <tr>
                  <th scope="col">Schedule</th>
                  <th scope="col">Tenant</th>
                  <th scope="col">Cron</th>
                  <th scope="col">Timezone</th>
                  <th scope="col">Job</th>
                  <th scope="col">Queue</th>
                  <th scope="col">State</th>
                  <th scope="col">Next slots</th>
                  <th scope="col">Last slot</th>
                  <th scope="col" class="num">
                    Revision
                  </th>
                  {config.readOnly ? null : <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {stored.schedules.map((schedule) => (
                  <StoredRow
                    key={JSON.stringify([schedule.tenantId ?? null, schedule.name])}
                    schedule={schedule}
                    onDone={onDone}
                  />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {paged || more !== undefined ? (
        <nav class="actions" aria-label="Stored schedule pages">
          {paged ? (
            <Link to={withQuery('/schedules', { tenant })} class="button">
              ← First page
            </Link>
          ) : null}
          {more === undefined ? null : (
            <Link to={withQuery('/schedules', { tenant, after: more })} class="button">
              Next page →
            </Link>
          )}
        </nav>
      ) : null}
    </>
  );
}

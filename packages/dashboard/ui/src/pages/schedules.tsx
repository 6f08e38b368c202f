import type { SchedulesResponse } from '../../../src/api-types';
import { getJson } from '../api';
import { Instant } from '../components/instant';
import { Loading, Problem } from '../components/problem';
import { StateBadge } from '../components/state-badge';
import { Link } from '../router';
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

export function SchedulesPage() {
  const { data, error } = usePoll('schedules', () => getJson<SchedulesResponse>('/schedules'));
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
          {!data.configured ? (
            <p class="muted">
              No schedules were given to this dashboard: pass the app's schedules as{' '}
              <code>createDashboard({'{ schedules }'})</code>.
            </p>
          ) : data.schedules.length === 0 ? (
            <p class="muted">No schedule is visible here.</p>
          ) : (
            <div class="table-wrap">
              <table>
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
                        {schedule.last === null ? (
                          <span class="muted">—</span>
                        ) : (
                          <>
                            <Instant at={schedule.last.slot} />{' '}
                            {schedule.last.state === null ? (
                              <span class="muted">(no job stored)</span>
                            ) : (
                              <Link to={`/jobs/${schedule.last.jobId}`}>
                                <StateBadge state={schedule.last.state} />
                              </Link>
                            )}
                          </>
                        )}
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

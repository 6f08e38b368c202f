import type { OverviewResponse, QueueOverview, State } from '../../../src/api-types';
import { getJson } from '../api';
import { Age } from '../components/age';
import { ThroughputChart } from '../components/chart';
import { Instant } from '../components/instant';
import { PauseControl } from '../components/pause-control';
import { Loading, Problem } from '../components/problem';
import { config } from '../config';
import { formatDuration } from '../format';
import { Link, withQuery } from '../router';
import { usePoll } from '../use-poll';

const COLUMNS: readonly State[] = [
  'ready',
  'delayed',
  'running',
  'suspended',
  'completed',
  'failed',
  'dead',
  'cancelled',
];

function Count({ queue, state }: { readonly queue: QueueOverview; readonly state: State }) {
  const count = queue.counts[state];
  const capped = queue.capped.includes(state);
  const text = `${count.toLocaleString()}${capped ? '+' : ''}`;
  if (count === 0) return <span class="muted">0</span>;
  return (
    <Link
      to={withQuery('/jobs', { queue: queue.queue, state })}
      aria-label={`${text} ${state} in ${queue.queue}`}
    >
      {text}
    </Link>
  );
}

function Totals({ queues }: { readonly queues: readonly QueueOverview[] }) {
  const sum = (state: State) => queues.reduce((total, queue) => total + queue.counts[state], 0);
  const cards: readonly { state: State; label: string }[] = [
    { state: 'ready', label: 'Ready' },
    { state: 'running', label: 'Running' },
    { state: 'delayed', label: 'Delayed' },
    { state: 'dead', label: 'Dead letters' },
  ];
  return (
    <ul class="cards">
      {cards.map(({ state, label }) => (
        <li key={state} class={`card state-${state}`}>
          <Link to={withQuery('/jobs', { state })} class="card-link">
            <span class="card-value">{sum(state).toLocaleString()}</span>
            <span class="card-label">{label}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function Stale({
  stale,
  now,
}: {
  readonly stale: OverviewResponse['stale'];
  readonly now: number;
}) {
  if (stale.names.length === 0) return null;
  const title = `Ready jobs no worker ran for over ${formatDuration(stale.afterMs)}`;
  return (
    <section aria-label={title} class="stale">
      <h2>{title}</h2>
      <p class="muted small">
        A name here is one no running worker handles (add it to a worker's jobs, or cancel its jobs)
        or one the workers are falling behind on. A count shown with + has more ready jobs than were
        read.
      </p>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Queue</th>
              <th scope="col">Name</th>
              <th scope="col" class="num">
                Oldest ready
              </th>
              <th scope="col" class="num">
                Jobs
              </th>
            </tr>
          </thead>
          <tbody>
            {stale.names.map((entry) => (
              <tr key={`${entry.queue}\u0000${entry.name}`}>
                <td>{entry.queue}</td>
                <td>
                  <Link
                    to={withQuery('/jobs', {
                      queue: entry.queue,
                      name: entry.name,
                      state: 'ready',
                    })}
                  >
                    {entry.name}
                  </Link>
                </td>
                <td class="num">
                  <Age ms={entry.oldestReadyAgeMs} now={now} />
                </td>
                <td class="num">
                  {entry.seen.toLocaleString()}
                  {stale.partial.includes(entry.queue) ? '+' : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function ConcurrencyKeys({
  concurrency,
}: {
  readonly concurrency: OverviewResponse['concurrency'];
}) {
  const { keys, keyCount, scanned, truncated } = concurrency;
  const more = keyCount - keys.length;
  const own = config.tenant === null ? '' : " of this tenant's";
  return (
    <section aria-labelledby="concurrency-title">
      <h2 id="concurrency-title">Concurrency keys in use</h2>
      {keys.length === 0 ? (
        <p class="muted">No job with a concurrency key is running.</p>
      ) : (
        <div class="table-wrap">
          <table class="concurrency">
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Key</th>
                <th scope="col" class="num">
                  Running
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((entry) => (
                <tr key={`${entry.name}\u0000${entry.key}`}>
                  <td>
                    <Link to={withQuery('/jobs', { name: entry.name, state: 'running' })}>
                      {entry.name}
                    </Link>
                  </td>
                  <td>{entry.key}</td>
                  <td class="num">{entry.running.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {more > 0 ? (
        <p class="muted small">
          {more.toLocaleString()} more {more === 1 ? 'key has' : 'keys have'} running jobs; the{' '}
          {keys.length.toLocaleString()} busiest are shown.
        </p>
      ) : null}
      {truncated ? (
        <p class="muted small">
          Counted from the newest {scanned.toLocaleString()} running jobs{own}; more were running.
        </p>
      ) : null}
    </section>
  );
}

function Bound({ overview }: { readonly overview: OverviewResponse }) {
  const { throughput } = overview;
  if (throughput.source === 'scanned') {
    return (
      <p class="muted small">
        Tenant scope: counts and throughput come from this tenant's newest {config.tenantScan} jobs
        of each state; a count shown with + has more.
      </p>
    );
  }
  return (
    <p class="muted small">
      Throughput is sampled from the driver's <code>stats()</code> every{' '}
      {formatDuration(throughput.sampleMs)} by this dashboard process
      {throughput.since === null ? null : (
        <>
          , since <Instant at={throughput.since} />
        </>
      )}
      ; jobs purged between two samples are not counted.
    </p>
  );
}

export function OverviewPage() {
  const { data, error, reload } = usePoll('overview', () => getJson<OverviewResponse>('/overview'));
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      {error ? <Problem error={error} /> : null}
      {data === undefined ? (
        error ? null : (
          <Loading />
        )
      ) : (
        <>
          <Totals queues={data.queues} />
          <Stale stale={data.stale} now={data.now} />
          <h2>Throughput, last hour</h2>
          <ThroughputChart label="All queues" {...data.throughput} />
          <Bound overview={data} />
          <h2>Queues</h2>
          {data.queues.length === 0 ? (
            <p class="muted">No queue holds any job yet.</p>
          ) : (
            <div class="table-wrap">
              <table class="queues">
                <thead>
                  <tr>
                    <th scope="col">Queue</th>
                    <th scope="col">Status</th>
                    {COLUMNS.map((state) => (
                      <th scope="col" key={state} class="num">
                        {state}
                      </th>
                    ))}
                    <th scope="col" class="num">
                      Oldest ready
                    </th>
                    <th scope="col">Last hour</th>
                  </tr>
                </thead>
                <tbody>
                  {data.queues.map((queue) => (
                    <tr key={queue.queue}>
                      <th scope="row">
                        <Link to={withQuery('/jobs', { queue: queue.queue })}>{queue.queue}</Link>
                      </th>
                      <td class="pause">
                        <PauseControl queue={queue} onDone={reload} />
                      </td>
                      {COLUMNS.map((state) => (
                        <td key={state} class="num">
                          <Count queue={queue} state={state} />
                        </td>
                      ))}
                      <td class="num">
                        {queue.oldestReadyAgeMs === null ? (
                          '—'
                        ) : (
                          <Age ms={queue.oldestReadyAgeMs} now={data.now} />
                        )}
                        {data.stale.names.some((entry) => entry.queue === queue.queue) ? (
                          <span class="stale-flag" title="holds ready jobs no worker ran">
                            {' '}
                            ⚠
                          </span>
                        ) : null}
                      </td>
                      <td>
                        <ThroughputChart
                          small
                          label={queue.queue}
                          minuteStarts={data.throughput.minuteStarts}
                          completed={queue.completed}
                          failed={queue.failed}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <ConcurrencyKeys concurrency={data.concurrency} />
        </>
      )}
    </section>
  );
}

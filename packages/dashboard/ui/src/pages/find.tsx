import { useEffect } from 'preact/hooks';
import type { FindResponse, JobSummary } from '../../../src/api-types';
import { getJson } from '../api';
import { Instant } from '../components/instant';
import { JobIdCell } from '../components/job-id';
import { Loading, Problem } from '../components/problem';
import { StateBadge } from '../components/state-badge';
import { distinguishingTails } from '../id-tail';
import { navigate } from '../router';
import { usePoll } from '../use-poll';

function Candidates({ jobs }: { readonly jobs: readonly JobSummary[] }) {
  const tails = distinguishingTails(jobs.map((job) => job.id));
  return (
    <div class="table-wrap">
      <table class="jobs" data-testid="candidates">
        <caption class="visually-hidden">Jobs this part of an id could mean</caption>
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">Name</th>
            <th scope="col">Queue</th>
            <th scope="col">State</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
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
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The id search's answer: the one job it names opens at once; otherwise why, and the candidates. */
export function FindPage({ id }: { readonly id: string }) {
  const { data, error } = usePoll(
    `find?${id}`,
    () => getJson<FindResponse>('/find', new URLSearchParams({ id })),
    false,
  );
  const found = data?.job.id;
  useEffect(() => {
    if (found !== undefined) navigate(`/jobs/${encodeURIComponent(found)}`, { replace: true });
  }, [found]);
  return (
    <section aria-labelledby="find-title">
      <h1 id="find-title">
        Find <span class="mono">{id}</span>
      </h1>
      {error ? <Problem error={error} /> : data === undefined ? <Loading /> : null}
      {error && error.candidates.length > 0 ? <Candidates jobs={error.candidates} /> : null}
    </section>
  );
}

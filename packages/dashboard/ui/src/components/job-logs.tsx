import type { JobLogsResponse } from '../../../src/api-types';
import { getJson } from '../api';
import { usePoll } from '../use-poll';
import { Instant } from './instant';
import { Loading, Problem } from './problem';

/**
 * The job's log lines (what its handlers wrote with `ctx.log`), oldest first, each with its
 * attempt, time and level. Polled while the job is live; a settled job's log no longer changes.
 */
export function JobLogs({ id, live }: { readonly id: string; readonly live: boolean }) {
  const path = `/jobs/${encodeURIComponent(id)}/logs`;
  const { data, error } = usePoll(`logs:${id}`, () => getJson<JobLogsResponse>(path), live);
  return (
    <section aria-labelledby="job-logs-title">
      <h2 id="job-logs-title">Logs</h2>
      {data === undefined ? (
        error ? (
          <Problem error={error} />
        ) : (
          <Loading />
        )
      ) : data.lines.length === 0 && data.dropped === 0 ? (
        <p class="muted">This job logged nothing.</p>
      ) : (
        <>
          <ol class="log-lines" aria-label="Log lines">
            {data.lines.map((line) => (
              <li key={line.seq} class={`log-line log-${line.level}`} data-seq={line.seq}>
                <span class="log-seq">#{line.seq}</span>
                <span class="muted small">attempt {line.attempt}</span>
                <span class="small">
                  <Instant at={line.at} />
                </span>
                <span class={`badge log-level log-level-${line.level}`}>{line.level}</span>
                <span class="log-message">{line.message}</span>
              </li>
            ))}
          </ol>
          {data.dropped > 0 ? (
            <p class="muted small">
              {data.dropped} later lines were dropped: a job keeps its first {data.lines.length}{' '}
              lines.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

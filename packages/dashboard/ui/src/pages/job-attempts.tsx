import type { AttemptsView } from '../../../src/api-types';
import { Instant } from '../components/instant';

/** How long an attempt ran: ms under a second, then seconds with one decimal. */
const took = (ms: number): string => (ms < 1_000 ? `${ms} ms` : `${(ms / 1_000).toFixed(1)} s`);

/**
 * The job's attempt history, oldest first: when each was claimed, by which worker, how long it
 * ran, how it ended, and its error with the stack folded away until opened.
 */
export function AttemptsList({ attempts }: { readonly attempts: AttemptsView }) {
  if (attempts.records.length === 0) return <p class="muted">No attempt has ended yet.</p>;
  return (
    <>
      {attempts.dropped > 0 ? (
        <p class="muted small">
          {attempts.dropped} earlier {attempts.dropped === 1 ? 'attempt is' : 'attempts are'} not
          kept: the first and the latest are.
        </p>
      ) : null}
      <ol class="timeline attempts">
        {attempts.records.map((record) => (
          <li
            key={record.seq}
            class={`step attempt attempt-${record.outcome}`}
            data-attempt={record.seq}
          >
            <div class="step-head">
              <span class="step-index">{record.seq}</span>
              <strong>Attempt {record.attempt}</strong>
              <span class={`badge attempt-outcome-${record.outcome}`}>{record.outcome}</span>
              <span class="muted small">
                by <code>{record.workerId}</code> · claimed <Instant at={record.claimedAt} /> · ran{' '}
                {took(Math.max(0, record.endedAt - record.claimedAt))}
              </span>
            </div>
            {record.error ? (
              <section class="error-block" aria-label={`Error of attempt ${record.seq}`}>
                <p>
                  {record.error.code ? <code class="code">{record.error.code}</code> : null}{' '}
                  {record.error.message}
                </p>
                {record.error.stack ? (
                  <details>
                    <summary>Stack</summary>
                    <pre class="stack">{record.error.stack}</pre>
                  </details>
                ) : null}
              </section>
            ) : null}
          </li>
        ))}
      </ol>
    </>
  );
}

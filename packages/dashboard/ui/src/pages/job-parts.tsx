import type { JobView, StepView } from '../../../src/api-types';
import { Instant } from '../components/instant';
import { JsonView } from '../components/json-view';
import { Link } from '../router';

function Fact({ label, children }: { readonly label: string; readonly children: unknown }) {
  if (children === undefined || children === null || children === '') return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>{children as never}</dd>
    </>
  );
}

/** The record's fields, the lease holder among them. */
export function JobFacts({ job }: { readonly job: JobView }) {
  return (
    <dl class="facts">
      <Fact label="Queue">{job.queue}</Fact>
      <Fact label="Priority">{String(job.priority)}</Fact>
      <Fact label="Attempts">{`${job.attempts} of ${job.maxAttempts}`}</Fact>
      <Fact label="Created">
        <Instant at={job.createdAt} />
      </Fact>
      <Fact label="Updated">
        <Instant at={job.updatedAt} />
      </Fact>
      <Fact label="Run at">
        <Instant at={job.runAt} />
      </Fact>
      <Fact label="Finished">
        {job.finishedAt === undefined ? undefined : <Instant at={job.finishedAt} />}
      </Fact>
      <Fact label="Lease holder">
        {job.claimedBy === undefined ? undefined : (
          <span>
            <code>{job.claimedBy}</code>
            {job.visibleAt === undefined ? null : (
              <>
                {' '}
                until <Instant at={job.visibleAt} />
              </>
            )}
          </span>
        )}
      </Fact>
      <Fact label="Claim (fence)">{String(job.claim)}</Fact>
      <Fact label="Waits for event">{job.waitFor}</Fact>
      <Fact label="Tenant">{job.tenantId}</Fact>
      <Fact label="Idempotency key">{job.idempotencyKey}</Fact>
      <Fact label="Concurrency key">{job.concurrencyKey}</Fact>
      <Fact label="Enqueued by">{job.enqueuedBy}</Fact>
      <Fact label="Parent job">
        {job.parentId === undefined ? undefined : (
          <Link to={`/jobs/${encodeURIComponent(job.parentId)}`} class="mono">
            {job.parentId}
          </Link>
        )}
      </Fact>
      <Fact label="Trace">{job.traceparent}</Fact>
      <Fact label="Run id">
        <code>{job.runId}</code>
      </Fact>
    </dl>
  );
}

export function ErrorBlock({
  error,
  title,
}: {
  readonly error: { readonly code?: string; readonly message: string; readonly stack?: string };
  readonly title: string;
}) {
  return (
    <section class="error-block" aria-label={title}>
      <p>
        {error.code ? <code class="code">{error.code}</code> : null} {error.message}
      </p>
      {error.stack ? (
        <pre class="stack" title="Stack">
          {error.stack}
        </pre>
      ) : null}
    </section>
  );
}

/** Steps in write order, oldest first, as a timeline. */
export function StepsTimeline({
  steps,
  retryFrom,
}: {
  readonly steps: readonly StepView[];
  readonly retryFrom: ((step: string) => void) | undefined;
}) {
  if (steps.length === 0) return <p class="muted">This run wrote no steps.</p>;
  return (
    <ol class="timeline">
      {steps.map((step, index) => (
        <li key={step.name} class={`step step-${step.status}`} data-step={step.name}>
          <div class="step-head">
            <span class="step-index">{index + 1}</span>
            <strong class="step-name">{step.name}</strong>
            <span class={`badge step-status-${step.status}`}>{step.status}</span>
            <span class="muted small">
              {step.attempts} {step.attempts === 1 ? 'run' : 'runs'} · started{' '}
              <Instant at={step.startedAt} /> · updated <Instant at={step.updatedAt} />
            </span>
            {retryFrom === undefined ? null : (
              <button type="button" class="small" onClick={() => retryFrom(step.name)}>
                Retry from here
              </button>
            )}
          </div>
          {step.wakeAt !== undefined ? (
            <p class="small">
              {step.eventName ? (
                <>
                  Waits for <code>{step.eventName}</code> until{' '}
                </>
              ) : (
                'Sleeps until '
              )}
              <Instant at={step.wakeAt} />
            </p>
          ) : null}
          {step.eventId ? (
            <p class="small">
              Resumed by event <code>{step.eventId}</code>
            </p>
          ) : null}
          {step.output !== undefined ? (
            <JsonView value={step.output} label={`Output of ${step.name}`} />
          ) : null}
          {step.error ? <ErrorBlock error={step.error} title={`Error of ${step.name}`} /> : null}
        </li>
      ))}
    </ol>
  );
}

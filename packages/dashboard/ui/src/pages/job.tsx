import { useState } from 'preact/hooks';
import type { JobResponse, JobView } from '../../../src/api-types';
import { type ApiError, getJson, postJson } from '../api';
import { ConfirmDialog, type ConfirmRequest } from '../components/confirm';
import { JobLogs } from '../components/job-logs';
import { JsonView } from '../components/json-view';
import { Loading, Problem } from '../components/problem';
import { StateBadge } from '../components/state-badge';
import { Link } from '../router';
import { usePoll } from '../use-poll';
import { AttemptsList } from './job-attempts';
import { ErrorBlock, JobFacts, StepsTimeline } from './job-parts';

type Action = 'retry' | 'cancel' | 'promote' | 'delete';

const WORDS: Record<Action, { title: string; confirm: string; danger: boolean; body: string }> = {
  retry: {
    title: 'Retry this job?',
    confirm: 'Retry',
    danger: false,
    body: 'It goes back to ready with its attempts reset; its steps are kept, so they do not run again.',
  },
  cancel: {
    title: 'Cancel this job?',
    confirm: 'Cancel job',
    danger: true,
    body: 'It will not run again. A worker running it now is told to stop.',
  },
  promote: {
    title: 'Run this job now?',
    confirm: 'Promote',
    danger: false,
    body: 'It becomes ready now instead of at its run time.',
  },
  delete: {
    title: 'Delete this job?',
    confirm: 'Delete job',
    danger: true,
    body: 'The job and its steps are deleted for good, and its idempotency key is free again. This cannot be undone.',
  },
};

export function JobPage({ id }: { readonly id: string }) {
  const path = `/jobs/${encodeURIComponent(id)}`;
  // Set once this page deleted the job: there is nothing left to show or poll.
  const [deleted, setDeleted] = useState<JobView | undefined>(undefined);
  const { data, error, reload } = usePoll(
    `job:${id}`,
    () => getJson<JobResponse>(path),
    deleted === undefined,
  );
  const [confirming, setConfirming] = useState<ConfirmRequest | undefined>(undefined);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  const [failure, setFailure] = useState<ApiError | undefined>(undefined);

  const act = (action: Action, fromStep?: string) => {
    const words = WORDS[action];
    setConfirming({
      title: fromStep === undefined ? words.title : `Retry from step “${fromStep}”?`,
      confirm: words.confirm,
      danger: words.danger,
      body:
        fromStep === undefined ? (
          <p>{words.body}</p>
        ) : (
          <p>
            Step <code>{fromStep}</code> and every step written after it are dropped and run again;
            the steps before it are kept.
          </p>
        ),
      run: async () => {
        setFailure(undefined);
        try {
          const body = fromStep === undefined ? {} : { fromStep };
          const answer = await postJson<{ job: JobView }>(`${path}/${action}`, body);
          if (action === 'delete') {
            setDeleted(answer.job);
            return;
          }
          setOutcome({ ok: true, text: `Done: the job is ${answer.job.state} now.` });
        } catch (caught) {
          setFailure(caught as ApiError);
        }
        await reload();
      },
    });
  };

  if (deleted !== undefined) {
    return (
      <section aria-labelledby="job-title">
        <h1 id="job-title">Job deleted</h1>
        <p class="notice ok" role="status">
          Deleted {deleted.name} <span class="mono">{deleted.id}</span> (it was {deleted.state}),
          with its steps.
        </p>
        <p>
          <Link to="/jobs" class="button">
            Back to jobs
          </Link>
        </p>
      </section>
    );
  }
  if (data === undefined) {
    return (
      <section>
        <h1>Job</h1>
        {error ? <Problem error={error} /> : <Loading />}
      </section>
    );
  }
  const { job, attempts, steps, actions } = data;
  const any = actions.retry || actions.cancel || actions.promote || actions.delete;
  return (
    <section aria-labelledby="job-title">
      <header class="job-header">
        <h1 id="job-title">
          {job.name} <StateBadge state={job.state} />
        </h1>
        <p class="mono small">{job.id}</p>
      </header>
      {any ? (
        <fieldset class="actions">
          <legend class="visually-hidden">Actions</legend>
          {actions.retry ? (
            <button type="button" class="primary" onClick={() => act('retry')}>
              Retry
            </button>
          ) : null}
          {actions.promote ? (
            <button type="button" onClick={() => act('promote')}>
              Promote (run now)
            </button>
          ) : null}
          {actions.cancel ? (
            <button type="button" class="danger" onClick={() => act('cancel')}>
              Cancel
            </button>
          ) : null}
          {actions.delete ? (
            <button type="button" class="danger" onClick={() => act('delete')}>
              Delete
            </button>
          ) : null}
        </fieldset>
      ) : null}
      <div aria-live="polite">
        {outcome ? <p class="notice ok">{outcome.text}</p> : null}
        {failure ? <Problem error={failure} /> : null}
        {error ? <Problem error={error} /> : null}
      </div>
      <JobFacts job={job} />
      {job.lastError ? (
        <>
          <h2>Last error</h2>
          <ErrorBlock error={job.lastError} title="Last error" />
        </>
      ) : null}
      <h2>Attempts</h2>
      <AttemptsList attempts={attempts} />
      <h2>Payload</h2>
      <JsonView value={job.payload} label="Payload" />
      {job.result !== undefined ? (
        <>
          <h2>Result</h2>
          <JsonView value={job.result} label="Result" />
        </>
      ) : null}
      {job.progress !== undefined ? (
        <>
          <h2>Progress</h2>
          <JsonView value={job.progress} label="Progress" />
        </>
      ) : null}
      <h2>Steps</h2>
      <StepsTimeline
        steps={steps}
        retryFrom={actions.retryFromStep ? (step) => act('retry', step) : undefined}
      />
      <JobLogs
        id={job.id}
        live={
          job.state === 'ready' ||
          job.state === 'running' ||
          job.state === 'delayed' ||
          job.state === 'suspended'
        }
      />
      <ConfirmDialog request={confirming} onClose={() => setConfirming(undefined)} />
    </section>
  );
}

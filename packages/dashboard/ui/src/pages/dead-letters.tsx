import { useState } from 'preact/hooks';
import type {
  DeadLetterGroup,
  DeadLettersResponse,
  GroupActionResponse,
  OverviewResponse,
} from '../../../src/api-types';
import { type ApiError, getJson, postJson } from '../api';
import { ConfirmDialog, type ConfirmRequest } from '../components/confirm';
import { Instant } from '../components/instant';
import { JsonView } from '../components/json-view';
import { Loading, Problem } from '../components/problem';
import { config } from '../config';
import { Link, navigate, withQuery } from '../router';
import { usePoll } from '../use-poll';
import { GroupReport } from './group-report';

type GroupAction = 'retry' | 'purge';

function QueuePicker({ current }: { readonly current: string }) {
  const { data } = usePoll('queues', () => getJson<OverviewResponse>('/overview'), false);
  const queues = (data?.queues ?? []).filter((queue) => queue.counts.dead > 0);
  return (
    <label class="inline">
      Queue{' '}
      <select
        onChange={(event) =>
          navigate(withQuery('/dead-letters', { queue: event.currentTarget.value }))
        }
      >
        <option value="" selected={current === ''}>
          all queues
        </option>
        {queues.map((queue) => (
          <option key={queue.queue} value={queue.queue} selected={current === queue.queue}>
            {queue.queue} ({queue.counts.dead})
          </option>
        ))}
      </select>
    </label>
  );
}

function GroupCard({
  group,
  onAction,
}: {
  readonly group: DeadLetterGroup;
  readonly onAction: ((action: GroupAction, group: DeadLetterGroup) => void) | undefined;
}) {
  return (
    <li class="group" data-testid="dead-letter-group" data-count={group.count}>
      <div class="group-head">
        <span class="group-count">{group.count}</span>
        <div>
          <p class="group-message">
            {group.code ? <code class="code">{group.code}</code> : null} {group.message}
          </p>
          <p class="muted small">
            queue <strong>{group.queue}</strong> · first <Instant at={group.firstSeen} /> · last{' '}
            <Instant at={group.lastSeen} />
          </p>
        </div>
        {onAction === undefined ? null : (
          <div class="actions">
            <button type="button" class="primary" onClick={() => onAction('retry', group)}>
              Retry group
            </button>
            <button type="button" class="danger" onClick={() => onAction('purge', group)}>
              Purge group
            </button>
          </div>
        )}
      </div>
      <details>
        <summary>
          Sample: <Link to={`/jobs/${group.sample.id}`}>{group.sample.name}</Link>
        </summary>
        <p class="small">{group.sample.message}</p>
        <JsonView value={group.sample.payload} label={`Sample payload of ${group.sample.name}`} />
        {group.sample.stack ? <pre class="stack">{group.sample.stack}</pre> : null}
      </details>
    </li>
  );
}

export function DeadLettersPage({ query }: { readonly query: URLSearchParams }) {
  const queue = query.get('queue') ?? '';
  const { data, error, reload } = usePoll(`dead:${queue}`, () =>
    getJson<DeadLettersResponse>('/dead-letters', query),
  );
  const [confirming, setConfirming] = useState<ConfirmRequest | undefined>(undefined);
  const [report, setReport] = useState<{ title: string; response: GroupActionResponse }>();
  const [failure, setFailure] = useState<ApiError | undefined>(undefined);

  const onAction = (action: GroupAction, group: DeadLetterGroup) => {
    const verb = action === 'retry' ? 'Retry' : 'Purge';
    setConfirming({
      title: `${verb} ${group.count} dead ${group.count === 1 ? 'job' : 'jobs'}?`,
      confirm: `${verb} ${group.count}`,
      danger: action === 'purge',
      body: (
        <p>
          {action === 'retry'
            ? 'Each job of this group goes back to ready with its attempts reset.'
            : 'Each job of this group and its steps are deleted for good.'}{' '}
          A job that left the group since this page loaded is skipped.
        </p>
      ),
      run: async () => {
        setFailure(undefined);
        try {
          const response = await postJson<GroupActionResponse>(`/dead-letters/${action}`, {
            key: group.key,
            ids: group.ids,
          });
          setReport({ title: `${verb}: ${group.message}`, response });
        } catch (caught) {
          setFailure(caught as ApiError);
        }
        await reload();
      },
    });
  };

  return (
    <section aria-labelledby="dead-title">
      <h1 id="dead-title">Dead letters</h1>
      <div class="toolbar">
        <QueuePicker current={queue} />
      </div>
      <div aria-live="polite">
        {report ? <GroupReport title={report.title} results={report.response.results} /> : null}
        {failure ? <Problem error={failure} /> : null}
      </div>
      {error ? <Problem error={error} /> : null}
      {data === undefined ? (
        error ? null : (
          <Loading />
        )
      ) : (
        <>
          <p class="muted small">
            Grouped by error code and message (ids, numbers and times made alike) from the newest{' '}
            {data.limit.toLocaleString()} dead jobs{queue ? ` of ${queue}` : ''}: {data.scanned}{' '}
            read{data.capped ? ', and older ones exist that are not grouped here' : ''}.
          </p>
          {data.groups.length === 0 ? (
            <p class="muted">No dead letters.</p>
          ) : (
            <ul class="groups">
              {data.groups.map((group) => (
                <GroupCard
                  key={group.key}
                  group={group}
                  onAction={config.readOnly ? undefined : onAction}
                />
              ))}
            </ul>
          )}
        </>
      )}
      <ConfirmDialog request={confirming} onClose={() => setConfirming(undefined)} />
    </section>
  );
}

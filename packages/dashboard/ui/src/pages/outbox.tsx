import { useState } from 'preact/hooks';
import type { OutboxActionResponse, OutboxResponse } from '../../../src/api-types';
import { type ApiError, getJson, postJson } from '../api';
import { ConfirmDialog, type ConfirmRequest } from '../components/confirm';
import { Instant } from '../components/instant';
import { Loading, Problem } from '../components/problem';
import { config } from '../config';
import { usePoll } from '../use-poll';

type Action = 'retry' | 'discard';

/** The transactional outbox: what waits for a relay, and the rows the queue refused. */
export function OutboxPage() {
  const { data, error, reload } = usePoll('outbox', () => getJson<OutboxResponse>('/outbox'));
  const [confirming, setConfirming] = useState<ConfirmRequest | undefined>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<ApiError | undefined>(undefined);

  const onAction = (action: Action, id: string, name: string) => {
    const retry = action === 'retry';
    setConfirming({
      title: retry ? `Stage ${name} again?` : `Discard ${name} for good?`,
      confirm: retry ? 'Retry' : 'Discard',
      danger: !retry,
      body: (
        <p>
          {retry
            ? 'The row waits for a relay again, which enqueues it next. Fix what the queue refused first, or it is refused again.'
            : 'The row is removed from the outbox: it never becomes a job.'}
        </p>
      ),
      run: async () => {
        setFailure(undefined);
        try {
          const response = await postJson<OutboxActionResponse>(`/outbox/${action}`, {
            ids: [id],
          });
          setDone(
            response.done.length === 0
              ? `${name} was no longer a dead row.`
              : retry
                ? `${name} staged again.`
                : `${name} discarded.`,
          );
        } catch (caught) {
          setFailure(caught as ApiError);
        }
        await reload();
      },
    });
  };

  return (
    <section aria-labelledby="outbox-title">
      <h1 id="outbox-title">Outbox</h1>
      <div aria-live="polite">
        {done ? <p class="notice info">{done}</p> : null}
        {failure ? <Problem error={failure} /> : null}
      </div>
      {error ? <Problem error={error} /> : null}
      {data === undefined ? (
        error ? null : (
          <Loading />
        )
      ) : !data.configured ? (
        <p class="muted">
          No outbox: pass <code>outbox: createPgOutbox(…)</code> to <code>createDashboard</code>.
        </p>
      ) : data.tenantScoped || data.stats === null ? (
        <p class="muted">
          The outbox holds every tenant's rows, so a tenant-scoped dashboard shows none.
        </p>
      ) : (
        <>
          <p data-testid="outbox-stats">
            {data.stats.staged.toLocaleString()} waiting for a relay,{' '}
            {data.stats.dead.toLocaleString()} refused by the queue
            {data.stats.oldestStagedAt === undefined ? (
              '.'
            ) : (
              <>
                ; the oldest waiting since <Instant at={data.stats.oldestStagedAt} />.
              </>
            )}
          </p>
          {data.dead.length === 0 ? (
            <p class="muted">No dead rows: the queue took every row relayed so far.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Kind</th>
                    <th scope="col" class="wide">
                      Refusal
                    </th>
                    <th scope="col">Dead since</th>
                    <th scope="col">Row</th>
                    {config.readOnly ? null : <th scope="col">Actions</th>}
                  </tr>
                </thead>
                <tbody>
                  {data.dead.map((row) => (
                    <tr key={row.id}>
                      <td>{row.name}</td>
                      <td>{row.kind}</td>
                      <td class="wide">
                        <code>{row.refusal.code ?? 'error'}</code> {row.refusal.message}
                      </td>
                      <td>
                        <Instant at={row.deadAt} />
                      </td>
                      <td>
                        <code>{row.id}</code>
                      </td>
                      {config.readOnly ? null : (
                        <td class="actions">
                          <button
                            type="button"
                            aria-label={`Retry row ${row.id}`}
                            onClick={() => onAction('retry', row.id, row.name)}
                          >
                            Retry
                          </button>{' '}
                          <button
                            type="button"
                            class="danger"
                            aria-label={`Discard row ${row.id}`}
                            onClick={() => onAction('discard', row.id, row.name)}
                          >
                            Discard
                          </button>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
      <ConfirmDialog request={confirming} onClose={() => setConfirming(undefined)} />
    </section>
  );
}

import { useState } from 'preact/hooks';
import type {
  BackfillRunView,
  BackfillStatusView,
  BackfillsResponse,
} from '../../../src/backfill-types';
import { getJson } from '../api';
import { BackfillActionButtons } from '../components/backfill-actions';
import { CopyButton } from '../components/copy-button';
import { Instant } from '../components/instant';
import { Loading, Problem } from '../components/problem';
import { config } from '../config';
import { Link, navigate, withQuery } from '../router';
import { usePoll } from '../use-poll';
import './backfills.css';

const STATUSES: readonly BackfillStatusView[] = [
  'running',
  'paused',
  'completed',
  'failed',
  'cancelled',
];
const FILTERS = ['status', 'name', 'tenant'] as const;
/** Characters of a cursor the table shows; its cell's title holds all of it. */
const CURSOR_SHOWN = 24;
/** A run id's start, enough to tell runs apart; hover or Copy for all of it. */
const RUN_ID_SHOWN = 8;

/** Uncontrolled fields, keyed by the query: a refresh never undoes what the user is typing. */
function Filters({ query }: { readonly query: URLSearchParams }) {
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const entries: Record<string, string | undefined> = {};
    for (const name of FILTERS) entries[name] = String(form.get(name) ?? '').trim() || undefined;
    navigate(withQuery('/backfills', entries));
  };
  const value = (name: string) => query.get(name) ?? '';
  return (
    <form class="filters" onSubmit={onSubmit} key={query.toString()} aria-label="Filter runs">
      <label>
        Status
        <select name="status">
          <option value="">any</option>
          {STATUSES.map((status) => (
            <option key={status} value={status} selected={value('status') === status}>
              {status}
            </option>
          ))}
        </select>
      </label>
      <label>
        Name
        <input name="name" defaultValue={value('name')} autoComplete="off" />
      </label>
      {config.tenant === null ? (
        <label>
          Tenant
          <input name="tenant" defaultValue={value('tenant')} autoComplete="off" />
        </label>
      ) : null}
      <div class="filter-actions">
        <button type="submit" class="primary">
          Apply
        </button>
        <Link to="/backfills" class="button">
          Clear
        </Link>
      </div>
    </form>
  );
}

const rate = (run: BackfillRunView): string =>
  run.rowsPerSecond === null
    ? '—'
    : run.rowsPerSecond.toLocaleString(undefined, { maximumFractionDigits: 1 });

function Cursor({ run }: { readonly run: BackfillRunView }) {
  const text = JSON.stringify(run.cursor);
  const shown = text.length > CURSOR_SHOWN ? `${text.slice(0, CURSOR_SHOWN - 1)}…` : text;
  return (
    <code class="cursor" title={text}>
      {shown}
    </code>
  );
}

function RunRow({
  run,
  onDone,
}: {
  readonly run: BackfillRunView;
  readonly onDone: (message: string) => Promise<void>;
}) {
  return (
    <tr>
      <th scope="row">
        {run.name}
        <div class="run-id muted small">
          <code title={run.runId}>{run.runId.slice(0, RUN_ID_SHOWN)}…</code>
          <CopyButton text={run.runId} label={`Copy run id ${run.runId}`} />
        </div>
        {run.tenantId === undefined ? null : <div class="muted small">tenant {run.tenantId}</div>}
      </th>
      <td>
        <span class={`badge backfill-${run.status}`}>{run.status}</span>
        {run.stalled ? (
          <span class="badge backfill-stalled" title="its runner job is gone: Resume hands it on">
            stalled
          </span>
        ) : null}
      </td>
      <td class="num" data-testid="rows-done">
        {run.rowsDone.toLocaleString()}
      </td>
      <td class="num">{run.passes.toLocaleString()}</td>
      <td class="num" data-testid="rows-per-second">
        {rate(run)}
      </td>
      <td>
        <Cursor run={run} />
      </td>
      <td>
        <Instant at={run.startedAt} />
      </td>
      <td>
        <Instant at={run.updatedAt} />
      </td>
      {config.readOnly ? null : (
        <td class="run-actions">
          <BackfillActionButtons run={run} onDone={onDone} />
        </td>
      )}
      <td class="wide error-text">{run.lastError ?? ''}</td>
    </tr>
  );
}

/** The backfill ledger: runs newest first, their progress, and Pause / Resume / Cancel. */
export function BackfillsPage({ query }: { readonly query: URLSearchParams }) {
  const key = query.toString();
  const { data, error, reload } = usePoll(`backfills?${key}`, () =>
    getJson<BackfillsResponse>('/backfills', query),
  );
  const [done, setDone] = useState('');
  const onDone = async (message: string) => {
    setDone(message);
    await reload();
  };
  return (
    <section aria-labelledby="backfills-title">
      <h1 id="backfills-title">Backfills</h1>
      <Filters query={query} />
      <div aria-live="polite">{done ? <p class="notice info">{done}</p> : null}</div>
      {error ? <Problem error={error} /> : null}
      {data === undefined ? (
        error ? null : (
          <Loading />
        )
      ) : data.runs.length === 0 ? (
        <p class="muted">No backfill runs match.</p>
      ) : (
        <>
          <p class="muted small">
            Newest start first, at most {data.limit}. Rows per second count from a run's start to
            its last change.
          </p>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Backfill</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Rows done
                  </th>
                  <th scope="col" class="num">
                    Passes
                  </th>
                  <th scope="col" class="num">
                    Rows/s
                  </th>
                  <th scope="col">Cursor</th>
                  <th scope="col">Started</th>
                  <th scope="col">Updated</th>
                  {config.readOnly ? null : <th scope="col">Actions</th>}
                  <th scope="col" class="wide">
                    Last error
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.runs.map((run) => (
                  <RunRow key={run.runId} run={run} onDone={onDone} />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

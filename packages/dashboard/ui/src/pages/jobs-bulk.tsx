import { useState } from 'preact/hooks';
import type { BulkAction, BulkActionResponse, BulkActionResult } from '../../../src/api-types';
import { type ApiError, postJson } from '../api';
import { ConfirmDialog, type ConfirmRequest } from '../components/confirm';
import { JobIdCell } from '../components/job-id';
import { Problem } from '../components/problem';
import { distinguishingTails } from '../id-tail';

const WORDS: Record<
  BulkAction,
  { readonly verb: string; readonly danger: boolean; readonly body: string }
> = {
  retry: {
    verb: 'Retry',
    danger: false,
    body: 'Each failed, dead or cancelled job goes back to ready with its attempts reset; any other is refused and left as it is.',
  },
  cancel: {
    verb: 'Cancel',
    danger: true,
    body: 'Each live job is cancelled and will not run again (a worker running one is told to stop); a settled one is refused.',
  },
  delete: {
    verb: 'Delete',
    danger: true,
    body: 'Each job is deleted for good with its steps, and its idempotency key is free again. A running job is refused: cancel it first.',
  },
};

const plural = (count: number): string => `${count} ${count === 1 ? 'job' : 'jobs'}`;

/**
 * One line for what a bulk action did: each outcome counted, refusals by the state (or code)
 * they named.
 */
export function summarise(results: readonly BulkActionResult[]): string {
  const tally = new Map<string, number>();
  for (const result of results) {
    const key =
      result.outcome === 'refused'
        ? `refused: ${result.reason ?? result.code ?? 'error'}`
        : result.outcome;
    tally.set(key, (tally.get(key) ?? 0) + 1);
  }
  // What landed first, then the refusals: "3 deleted, 1 refused: running".
  const refusedLast = [...tally].sort(
    ([a], [b]) => Number(a.startsWith('refused')) - Number(b.startsWith('refused')),
  );
  return refusedLast.map(([what, count]) => `${count} ${what}`).join(', ');
}

function BulkReport({ response }: { readonly response: BulkActionResponse }) {
  const { results } = response;
  const tails = distinguishingTails(results.map((result) => result.id));
  const refused = results.filter((result) => result.outcome === 'refused');
  return (
    <section class="report" aria-label="Bulk action report" data-testid="bulk-report">
      <p class={`notice ${refused.length > 0 ? 'warn' : 'ok'}`}>
        {WORDS[response.action].verb}: {summarise(results)}.
      </p>
      {refused.length === 0 ? null : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Refused</th>
              </tr>
            </thead>
            <tbody>
              {refused.map((result) => (
                <tr key={result.id} data-job-id={result.id}>
                  <td>
                    <JobIdCell id={result.id} tail={tails.get(result.id) ?? result.id} />
                  </td>
                  <td>
                    {result.code ? <code>{result.code}</code> : null} {result.message ?? ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * The actions on the jobs ticked in the table: each asks first, naming how many jobs, then
 * reports per job what happened. `onDone` clears the selection and reloads the page.
 */
export function BulkActions({
  selected,
  onDone,
}: {
  readonly selected: readonly string[];
  readonly onDone: () => Promise<void>;
}) {
  const [confirming, setConfirming] = useState<ConfirmRequest | undefined>(undefined);
  const [report, setReport] = useState<BulkActionResponse | undefined>(undefined);
  const [failure, setFailure] = useState<ApiError | undefined>(undefined);
  const ask = (action: BulkAction) => {
    const words = WORDS[action];
    const ids = [...selected];
    setConfirming({
      title: `${words.verb} ${plural(ids.length)}?`,
      confirm: `${words.verb} ${plural(ids.length)}`,
      danger: words.danger,
      body: <p>{words.body}</p>,
      run: async () => {
        setFailure(undefined);
        setReport(undefined);
        try {
          setReport(await postJson<BulkActionResponse>('/jobs/bulk', { action, ids }));
        } catch (caught) {
          setFailure(caught as ApiError);
        }
        await onDone();
      },
    });
  };
  const none = selected.length === 0;
  return (
    <>
      <fieldset class="actions bulk-actions" aria-label="Selected jobs">
        <legend class="muted small">
          {none ? 'Tick jobs to act on them' : `${plural(selected.length)} selected`}
        </legend>
        {(['retry', 'cancel', 'delete'] as const).map((action) => (
          <button
            key={action}
            type="button"
            class={WORDS[action].danger ? 'danger' : 'primary'}
            disabled={none}
            onClick={() => ask(action)}
          >
            {WORDS[action].verb} selected
          </button>
        ))}
      </fieldset>
      <div aria-live="polite">
        {report ? <BulkReport response={report} /> : null}
        {failure ? <Problem error={failure} /> : null}
      </div>
      <ConfirmDialog request={confirming} onClose={() => setConfirming(undefined)} />
    </>
  );
}

import { useState } from 'preact/hooks';
import type { BackfillResponse, BackfillRunView } from '../../../src/backfill-types';
import { type ApiError, postJson } from '../api';
import { formatJson } from '../format';
import { ConfirmDialog, type ConfirmRequest } from './confirm';
import { Problem } from './problem';

type Verb = 'pause' | 'resume' | 'cancel';

const LABELS: Readonly<Record<Verb, string>> = {
  pause: 'Pause',
  resume: 'Resume',
  cancel: 'Cancel run',
};

function question(verb: Verb, run: BackfillRunView): Omit<ConfirmRequest, 'run'> {
  const cursor = <code>{formatJson(run.cursor)}</code>;
  switch (verb) {
    case 'pause':
      return {
        title: `Pause backfill “${run.name}”?`,
        confirm: 'Pause',
        body: <p>Its runner stops once the pass in flight commits. Resume goes on from there.</p>,
      };
    case 'resume':
      return {
        title: `Resume backfill “${run.name}”?`,
        confirm: 'Resume',
        body: <p>A new runner job goes on from the committed cursor {cursor}.</p>,
      };
    case 'cancel':
      return {
        title: `Cancel backfill “${run.name}” for good?`,
        confirm: 'Cancel run',
        danger: true,
        body: (
          <p>
            The run ends at cursor {cursor}; a pass in flight is not counted. To go on later, start
            a new run of the backfill at that cursor.
          </p>
        ),
      };
  }
}

/**
 * Pause, Resume and Cancel for one run, each asked first; only the ones its status allows (the
 * server says which, and none in read-only mode). `onDone` reloads the list.
 */
export function BackfillActionButtons({
  run,
  onDone,
}: {
  readonly run: BackfillRunView;
  readonly onDone: (message: string) => Promise<void>;
}) {
  const [confirming, setConfirming] = useState<ConfirmRequest | undefined>(undefined);
  const [failure, setFailure] = useState<ApiError | undefined>(undefined);
  const act = (verb: Verb) =>
    setConfirming({
      ...question(verb, run),
      run: async () => {
        setFailure(undefined);
        try {
          const path = `/backfills/${encodeURIComponent(run.runId)}/${verb}`;
          const answer = await postJson<BackfillResponse>(path, {});
          await onDone(`${run.name} is ${answer.run.status}.`);
        } catch (caught) {
          setFailure(caught as ApiError);
          await onDone('');
        }
      },
    });
  const verbs = (['pause', 'resume', 'cancel'] as const).filter((verb) => run.actions[verb]);
  return (
    <>
      {verbs.map((verb) => (
        <button
          key={verb}
          type="button"
          class={verb === 'cancel' ? 'small danger' : 'small'}
          aria-label={`${LABELS[verb]} ${run.name} ${run.runId}`}
          onClick={() => act(verb)}
        >
          {LABELS[verb]}
        </button>
      ))}
      {failure ? <Problem error={failure} /> : null}
      <ConfirmDialog request={confirming} onClose={() => setConfirming(undefined)} />
    </>
  );
}

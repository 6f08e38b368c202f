import { useState } from 'preact/hooks';
import type { StoredScheduleResponse, StoredScheduleView } from '../../../src/api-types';
import { type ApiError, postJson } from '../api';
import { ConfirmDialog, type ConfirmRequest } from './confirm';
import { Problem } from './problem';

type Verb = 'pause' | 'resume' | 'remove';

const LABELS: Readonly<Record<Verb, string>> = {
  pause: 'Pause',
  resume: 'Resume',
  remove: 'Remove',
};

/** A stored schedule as the page names it: two tenants may each store one name. */
export const storedLabel = (schedule: StoredScheduleView): string =>
  schedule.tenantId === undefined
    ? schedule.name
    : `${schedule.name} (tenant ${schedule.tenantId})`;

function question(verb: Verb, schedule: StoredScheduleView): Omit<ConfirmRequest, 'run'> {
  const label = storedLabel(schedule);
  switch (verb) {
    case 'pause':
      return {
        title: `Pause schedule “${label}”?`,
        confirm: 'Pause',
        body: (
          <p>
            Schedulers enqueue none of its slots until it is resumed. Jobs it already enqueued still
            run.
          </p>
        ),
      };
    case 'resume':
      return {
        title: `Resume schedule “${label}”?`,
        confirm: 'Resume',
        body: (
          <p>
            It enqueues again from its next slot after now: the slots it was paused through are not
            run.
          </p>
        ),
      };
    case 'remove':
      return {
        title: `Remove schedule “${label}” for good?`,
        confirm: 'Remove',
        danger: true,
        body: (
          <p>
            The driver forgets it: no scheduler enqueues its slots again. Jobs it already enqueued
            stay. Storing it again (<code>client.schedules.upsert</code>) starts it anew.
          </p>
        ),
      };
  }
}

/**
 * Pause or Resume (as its state allows) and Remove for one stored schedule, each asked first.
 * The page leaves them out in read-only mode, where the server refuses them too.
 */
export function StoredScheduleActions({
  schedule,
  onDone,
}: {
  readonly schedule: StoredScheduleView;
  readonly onDone: (message: string) => Promise<void>;
}) {
  const [confirming, setConfirming] = useState<ConfirmRequest | undefined>(undefined);
  const [failure, setFailure] = useState<ApiError | undefined>(undefined);
  const label = storedLabel(schedule);
  const act = (verb: Verb) =>
    setConfirming({
      ...question(verb, schedule),
      run: async () => {
        setFailure(undefined);
        try {
          const body = {
            name: schedule.name,
            ...(schedule.tenantId === undefined ? {} : { tenantId: schedule.tenantId }),
          };
          const answer = await postJson<StoredScheduleResponse>(`/schedules/${verb}`, body);
          await onDone(
            verb === 'remove'
              ? `${label} is removed.`
              : `${label} is ${answer.schedule.paused ? 'paused' : 'active'}.`,
          );
        } catch (caught) {
          setFailure(caught as ApiError);
          await onDone('');
        }
      },
    });
  const verbs: readonly Verb[] = [schedule.paused ? 'resume' : 'pause', 'remove'];
  return (
    <>
      {verbs.map((verb) => (
        <button
          key={verb}
          type="button"
          class={verb === 'remove' ? 'small danger' : 'small'}
          aria-label={`${LABELS[verb]} ${label}`}
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

import { useState } from 'preact/hooks';
import type { QueueOverview } from '../../../src/api-types';
import { type ApiError, postJson } from '../api';
import { config } from '../config';
import { formatInstant } from '../format';
import { ConfirmDialog, type ConfirmRequest } from './confirm';
import { Problem } from './problem';

/**
 * A queue's pause: a "paused" badge while it holds, and a Pause or Resume button (asked first,
 * like every action). No button in read-only mode or for a tenant-scoped dashboard: a pause holds
 * every tenant's jobs, and the server refuses it there too.
 */
export function PauseControl({
  queue,
  onDone,
}: {
  readonly queue: QueueOverview;
  readonly onDone: () => Promise<void>;
}) {
  const [confirming, setConfirming] = useState<ConfirmRequest | undefined>(undefined);
  const [failure, setFailure] = useState<ApiError | undefined>(undefined);
  const paused = queue.pausedAt !== undefined;
  const name = queue.queue;
  const act = (action: 'pause' | 'resume') =>
    setConfirming({
      title: action === 'pause' ? `Pause queue “${name}”?` : `Resume queue “${name}”?`,
      confirm: action === 'pause' ? 'Pause' : 'Resume',
      danger: action === 'pause',
      body:
        action === 'pause' ? (
          <p>
            Every worker stops claiming its jobs. Enqueues still land, and jobs running now finish.
          </p>
        ) : (
          <p>Its workers are woken and claim its jobs again at once.</p>
        ),
      run: async () => {
        setFailure(undefined);
        try {
          await postJson(`/queues/${action}`, { queue: name });
        } catch (caught) {
          setFailure(caught as ApiError);
        }
        await onDone();
      },
    });
  const actions = !config.readOnly && config.tenant === null;
  return (
    <>
      {paused ? (
        <span
          class="badge paused"
          title={`paused since ${formatInstant(queue.pausedAt ?? 0)}: workers claim nothing from it`}
        >
          paused
        </span>
      ) : (
        <span class="muted">active</span>
      )}
      {actions ? (
        <button
          type="button"
          class="small"
          aria-label={`${paused ? 'Resume' : 'Pause'} ${name}`}
          onClick={() => act(paused ? 'resume' : 'pause')}
        >
          {paused ? 'Resume' : 'Pause'}
        </button>
      ) : null}
      {failure ? <Problem error={failure} /> : null}
      <ConfirmDialog request={confirming} onClose={() => setConfirming(undefined)} />
    </>
  );
}

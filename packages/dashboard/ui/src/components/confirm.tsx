import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export interface ConfirmRequest {
  readonly title: string;
  readonly body: ComponentChildren;
  readonly confirm: string;
  readonly danger?: boolean;
  readonly run: () => Promise<void>;
}

/**
 * Every action asks first, in a modal dialog: focus moves into it, Escape or Cancel closes it,
 * and the safe choice (Cancel) has the focus.
 */
export function ConfirmDialog({
  request,
  onClose,
}: {
  readonly request: ConfirmRequest | undefined;
  readonly onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (request !== undefined && !element.open) {
      element.showModal();
      cancel.current?.focus();
    }
    if (request === undefined && element.open) element.close();
  }, [request]);

  const confirm = async () => {
    const running = request;
    onClose();
    if (running !== undefined) await running.run();
  };

  return (
    <dialog ref={dialog} class="confirm" onClose={onClose} aria-labelledby="confirm-title">
      {request === undefined ? null : (
        <form method="dialog">
          <h2 id="confirm-title">{request.title}</h2>
          <div class="confirm-body">{request.body}</div>
          <div class="actions">
            <button type="button" ref={cancel} onClick={onClose}>
              Cancel
            </button>
            <button
              type="button"
              class={request.danger ? 'danger' : 'primary'}
              onClick={() => void confirm()}
            >
              {request.confirm}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}

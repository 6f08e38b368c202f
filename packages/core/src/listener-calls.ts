/**
 * Calls a listener a driver was given (a wake, a cancel or a settle notice). The listener is the
 * app's code: a throw is only a warning naming `who`, never the failure of the driver's change
 * or delivery loop that called it.
 */
export function callListener(who: string, call: () => void): void {
  try {
    call();
  } catch (error) {
    process.emitWarning(`berth: ${who} threw: ${String(error)}`, 'BerthWarning');
  }
}

/**
 * {@link callListener} on a microtask, after the change that calls it, so a listener cannot
 * break or reorder that change; skipped when `listening()` says the listener left meanwhile.
 */
export function callListenerLater(who: string, listening: () => boolean, call: () => void): void {
  queueMicrotask(() => {
    if (listening()) callListener(who, call);
  });
}

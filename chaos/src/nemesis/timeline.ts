/** Runs `fn` at `atMs` after `start`, unless `signal` aborted by then. */
export async function at(
  start: number,
  atMs: number,
  signal: AbortSignal,
  fn: () => Promise<void>,
): Promise<void> {
  const wait = start + atMs - Date.now();
  if (wait > 0) await sleepUnless(wait, signal);
  if (signal.aborted) return;
  await fn();
}

/** Sleeps `ms`, waking early (without throwing) when `signal` aborts. */
export function sleepUnless(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

export const between = ([low, high]: readonly [number, number]) =>
  low + Math.floor(Math.random() * (high - low));

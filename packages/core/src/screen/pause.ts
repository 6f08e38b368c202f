import type { PauseBackend, PauseOptions, PauseStore } from '../contract/pause.js';
import { BerthError } from '../errors/berth-error.js';
import { screening, screenName, screenObject } from './values.js';

/** A pause holds the whole queue: a tenant-scoped caller is refused, never half-served. */
function tenantRefused(): BerthError {
  return new BerthError({
    code: 'JOB_INVALID',
    detail:
      "tenantId cannot scope a pause: a pause holds the whole queue, every tenant's jobs alike",
    fix: 'pause or resume the queue without tenantId, as an operator of the whole deployment',
    meta: { field: 'tenantId', reason: 'cannot scope a pause' },
  });
}

const screenPauseOptions = screening('options', (options: PauseOptions = {}): void => {
  const input = screenObject('options', options);
  if (input.tenantId !== undefined) throw tenantRefused();
});

/** The queue named as enqueue's `queue` is, then the options. */
const screenPauseCall = screening(
  'queue',
  (queue: unknown, options: PauseOptions | undefined): string => {
    const screened = screenName('queue', queue);
    screenPauseOptions(options);
    return screened;
  },
);

type Run = <T>(operation: string, call: () => Promise<T>) => Promise<T>;

/** `driver.pauses`: screened once here, then the backend's calls under the driver's guard. */
export function screenedPauses(backend: PauseBackend, run: Run): PauseStore {
  return {
    pause: (queue, options) =>
      run('pause a queue', () => backend.pause(screenPauseCall(queue, options))),
    resume: (queue, options) =>
      run('resume a queue', () => backend.resume(screenPauseCall(queue, options))),
    list: (options) =>
      run('list paused queues', () => {
        screenPauseOptions(options);
        return backend.list();
      }),
  };
}

import type { DriverBackend } from './contract/driver.js';
import type { LifecycleStore } from './contract/lifecycle.js';
import { screenLifecycleRead, screenLifecycleTrim } from './screen/lifecycle.js';

type Run = <T>(operation: string, call: () => Promise<T>) => Promise<T>;

/** `driver.lifecycle`: inputs screened once, backend errors wrapped by `run`. */
export function screenedLifecycle(backend: DriverBackend, run: Run): LifecycleStore {
  return {
    read: (request) =>
      run('read lifecycle events', () => backend.lifecycle.read(screenLifecycleRead(request))),
    end: () => run('read the lifecycle end', () => backend.lifecycle.end()),
    trim: (options) =>
      run('trim lifecycle events', () => backend.lifecycle.trim(screenLifecycleTrim(options))),
  };
}

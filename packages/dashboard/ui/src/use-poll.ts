import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';
import { config } from './config';

export interface Polled<T> {
  readonly data: T | undefined;
  readonly error: ApiError | undefined;
  readonly reload: () => Promise<void>;
}

const asApiError = (error: unknown): ApiError =>
  error instanceof ApiError
    ? error
    : new ApiError(0, 'NETWORK', 'The dashboard could not be reached.');

/**
 * Loads with `load`, then again every `refreshMs` while the tab is visible (short polling: no
 * full-page reloads). A new `key` loads at once and forgets the old answer.
 */
export function usePoll<T>(key: string, load: () => Promise<T>, live = true): Polled<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const current = useRef(key);
  const loader = useRef(load);
  loader.current = load;

  const reload = useCallback(async () => {
    const asked = current.current;
    try {
      const answer = await loader.current();
      if (current.current !== asked) return;
      setData(answer);
      setError(undefined);
    } catch (caught) {
      if (current.current === asked) setError(asApiError(caught));
    }
  }, []);

  useEffect(() => {
    current.current = key;
    setData(undefined);
    setError(undefined);
    void reload();
    if (!live) return undefined;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void reload();
    }, config.refreshMs);
    return () => window.clearInterval(timer);
  }, [key, live, reload]);

  return { data, error, reload };
}

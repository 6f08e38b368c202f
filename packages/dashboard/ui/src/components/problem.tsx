import type { ApiError } from '../api';

export function Problem({ error }: { readonly error: ApiError }) {
  return (
    <div class="notice error" role="alert">
      <strong>{error.code}</strong> {error.message}
      {error.fix ? <div class="fix">{error.fix}</div> : null}
    </div>
  );
}

export function Loading() {
  return (
    <p class="muted" aria-live="polite">
      Loading…
    </p>
  );
}

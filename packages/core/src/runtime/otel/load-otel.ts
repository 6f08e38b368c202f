/** The OpenTelemetry API, when the app installed it (an optional peer dependency). */
export type OtelApi = typeof import('@opentelemetry/api');

let loaded: OtelApi | undefined;
let loading: Promise<OtelApi | undefined> | undefined;

/**
 * Loads `@opentelemetry/api` once, through a guarded dynamic import: an app without it gets
 * `undefined` and no tracing, never an import error.
 */
export function loadOtel(): Promise<OtelApi | undefined> {
  loading ??= import('@opentelemetry/api').then(
    (api) => {
      loaded = api;
      return api;
    },
    () => undefined,
  );
  return loading;
}

/** The API if it has loaded already; lets a caller read the active context without an await. */
export const loadedOtel = (): OtelApi | undefined => loaded;

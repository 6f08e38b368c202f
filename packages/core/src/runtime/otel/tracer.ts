import { loadedOtel, type OtelApi } from './load-otel.js';

export const TRACER = '@berth/core';

/**
 * The API and a tracer when spans would record: `undefined` without `@opentelemetry/api`, or
 * with it but no tracer provider registered (every span a no-op), so callers skip the wrapping.
 */
export function activeTracer():
  | { api: OtelApi; tracer: ReturnType<OtelApi['trace']['getTracer']> }
  | undefined {
  const api = loadedOtel();
  if (api === undefined) return undefined;
  const provider = api.trace.getTracerProvider();
  if (
    provider instanceof api.ProxyTracerProvider &&
    provider.getDelegateTracer(TRACER) === undefined
  ) {
    return undefined;
  }
  return { api, tracer: api.trace.getTracer(TRACER) };
}

/** Ends `span` with the outcome: OK, or ERROR with the exception recorded. */
export function endSpan(
  api: OtelApi,
  span: ReturnType<ReturnType<OtelApi['trace']['getTracer']>['startSpan']>,
  error?: unknown,
): void {
  if (error === undefined) {
    span.setStatus({ code: api.SpanStatusCode.OK });
  } else {
    if (error instanceof Error) span.recordException(error);
    span.setStatus({
      code: api.SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
  }
  span.end();
}

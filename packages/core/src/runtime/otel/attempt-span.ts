import type { ClaimedJob } from '../../contract/records.js';
import { loadedOtel } from './load-otel.js';
import { parseTraceparent } from './traceparent.js';

/** One attempt's span: runs the handler inside it, and ends with the attempt's outcome. */
export interface AttemptSpan {
  run<T>(fn: () => T): T;
  end(outcome: { readonly state: string; readonly error?: unknown }): void;
}

const TRACER = '@berth/core';

/**
 * Starts the span of one attempt (`berth.job <name>`, kind CONSUMER) continuing the job's
 * `traceparent` when it has one. No await: the worker loads `@opentelemetry/api` as it starts
 * (`loadOtel()`). `undefined` without the API or without a registered tracer provider (every
 * span would be a no-op), so the caller skips the wrapping altogether.
 */
export function attemptSpanNow(job: ClaimedJob, workerId: string): AttemptSpan | undefined {
  const api = loadedOtel();
  if (api === undefined) return undefined;
  // No tracer provider registered (the API alone is installed): every span would be a no-op.
  const provider = api.trace.getTracerProvider();
  if (
    provider instanceof api.ProxyTracerProvider &&
    provider.getDelegateTracer(TRACER) === undefined
  ) {
    return undefined;
  }
  const remote = parseTraceparent(job.traceparent);
  const parent =
    remote === undefined
      ? api.ROOT_CONTEXT
      : api.trace.setSpanContext(api.ROOT_CONTEXT, { ...remote, isRemote: true });
  const span = api.trace.getTracer(TRACER).startSpan(
    `berth.job ${job.name}`,
    {
      kind: api.SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'berth',
        'berth.job.id': job.id,
        'berth.job.run_id': job.runId,
        'berth.job.name': job.name,
        'berth.job.queue': job.queue,
        'berth.job.attempt': job.attempts,
        'berth.worker.id': workerId,
      },
    },
    parent,
  );
  const active = api.trace.setSpan(parent, span);
  return {
    run: (fn) => api.context.with(active, fn),
    end(outcome) {
      span.setAttribute('berth.job.outcome', outcome.state);
      if (outcome.error === undefined) {
        span.setStatus({ code: api.SpanStatusCode.OK });
      } else {
        const error = outcome.error;
        if (error instanceof Error) span.recordException(error);
        span.setStatus({
          code: api.SpanStatusCode.ERROR,
          message: error instanceof Error ? error.message : String(error),
        });
      }
      span.end();
    },
  };
}

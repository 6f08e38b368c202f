import type { ClaimedJob } from '../../contract/records.js';
import { parseTraceparent } from './traceparent.js';
import { activeTracer, endSpan } from './tracer.js';

/** One attempt's span: runs the handler inside it, and ends with the attempt's outcome. */
export interface AttemptSpan {
  run<T>(fn: () => T): T;
  end(outcome: { readonly state: string; readonly error?: unknown }): void;
}

/**
 * Starts the span of one attempt (`berth.job <name>`, kind CONSUMER) continuing the job's
 * `traceparent` when it has one. No await: the worker loads `@opentelemetry/api` as it starts
 * (`loadOtel()`). `undefined` without the API or without a registered tracer provider (every
 * span would be a no-op), so the caller skips the wrapping altogether.
 */
export function attemptSpanNow(job: ClaimedJob, workerId: string): AttemptSpan | undefined {
  const traced = activeTracer();
  if (traced === undefined) return undefined;
  const { api, tracer } = traced;
  const remote = parseTraceparent(job.traceparent);
  const producer = remote === undefined ? undefined : { ...remote, isRemote: true };
  const parent =
    producer === undefined
      ? api.ROOT_CONTEXT
      : api.trace.setSpanContext(api.ROOT_CONTEXT, producer);
  const span = tracer.startSpan(
    `berth.job ${job.name}`,
    {
      kind: api.SpanKind.CONSUMER,
      // The enqueue's span is the parent and, as the messaging conventions ask, a link too.
      ...(producer === undefined ? {} : { links: [{ context: producer }] }),
      attributes: {
        'messaging.system': 'berth',
        'messaging.operation.type': 'process',
        'messaging.operation.name': 'process',
        'messaging.destination.name': job.queue,
        'messaging.message.id': job.id,
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
      endSpan(api, span, outcome.error);
    },
  };
}

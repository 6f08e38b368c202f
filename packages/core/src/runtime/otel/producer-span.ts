import { loadedOtel, loadOtel } from './load-otel.js';
import { toTraceparent } from './traceparent.js';
import { activeTracer, endSpan } from './tracer.js';

/** An enqueue's span: the traceparent its jobs carry, ended once the driver answered. */
export interface ProducerSpan {
  readonly traceparent: string;
  /** Names the queue the jobs went to, once the requests are built (`send <queue>`). */
  sentTo(queues: readonly string[], names: readonly string[]): void;
  end(outcome: { readonly ids?: readonly string[]; readonly error?: unknown }): void;
}

/**
 * Starts the PRODUCER span of an enqueue or a batch (`send <queue>`, OpenTelemetry's messaging
 * conventions) as a child of the caller's active span; its context becomes the `traceparent` of
 * the jobs that name none, so each attempt's span is its child and links to it. `undefined` when
 * no tracer would record.
 */
export function producerSpan(): ProducerSpan | undefined {
  const traced = activeTracer();
  if (traced === undefined) return undefined;
  const { api, tracer } = traced;
  // Started before the first await, so the caller's span is its parent.
  const span = tracer.startSpan(
    'send',
    {
      kind: api.SpanKind.PRODUCER,
      attributes: {
        'messaging.system': 'berth',
        'messaging.operation.type': 'send',
        'messaging.operation.name': 'enqueue',
      },
    },
    api.context.active(),
  );
  return {
    traceparent: toTraceparent(span.spanContext()),
    sentTo(queues, names) {
      const distinct = [...new Set(queues)];
      if (distinct.length === 1 && distinct[0] !== undefined) {
        span.updateName(`send ${distinct[0]}`);
        span.setAttribute('messaging.destination.name', distinct[0]);
      }
      span.setAttribute('berth.job.name', [...new Set(names)].join(','));
      if (names.length > 1) span.setAttribute('messaging.batch.message_count', names.length);
    },
    end({ ids, error }) {
      if (ids?.length === 1 && ids[0] !== undefined)
        span.setAttribute('messaging.message.id', ids[0]);
      endSpan(api, span, error);
    },
  };
}

/**
 * {@link producerSpan}, loading `@opentelemetry/api` first when it has not loaded yet (the first
 * enqueues after start): the caller's context survives the await (the SDK's Node context manager
 * follows async calls), so its span is still the parent.
 */
export async function producerSpanSoon(): Promise<ProducerSpan | undefined> {
  if (loadedOtel() === undefined) await loadOtel();
  return producerSpan();
}

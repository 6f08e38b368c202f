import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type Context,
  type ContextManager,
  context,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createWorker, defineJob } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, recordingLogger } from './support/runtime.js';

/** Context that follows async calls, as the OpenTelemetry SDK's async-hooks manager does. */
class StoredContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

interface Recorded {
  name: string;
  parent: SpanContext | undefined;
  context: SpanContext;
  attributes: Record<string, unknown>;
  status?: { code: SpanStatusCode; message?: string };
  ended: boolean;
}

const recorded: Recorded[] = [];
let nextSpan = 1;

const tracer = {
  startSpan(
    name: string,
    options: { attributes?: Record<string, unknown> } = {},
    ctx?: Context,
  ): Span {
    const parent = trace.getSpanContext(ctx ?? context.active());
    const spanContext: SpanContext = {
      traceId: parent?.traceId ?? 'f'.repeat(32),
      spanId: (nextSpan++).toString(16).padStart(16, '0'),
      traceFlags: 1,
    };
    const entry: Recorded = {
      name,
      parent,
      context: spanContext,
      attributes: { ...options.attributes },
      ended: false,
    };
    recorded.push(entry);
    const span: Span = {
      spanContext: () => spanContext,
      setAttribute(key, value) {
        entry.attributes[key] = value;
        return span;
      },
      setAttributes(attributes) {
        Object.assign(entry.attributes, attributes);
        return span;
      },
      addEvent: () => span,
      addLink: () => span,
      addLinks: () => span,
      setStatus(status) {
        entry.status = status;
        return span;
      },
      updateName: () => span,
      end() {
        entry.ended = true;
      },
      isRecording: () => true,
      recordException: () => {},
    };
    return span;
  },
  startActiveSpan() {
    throw new Error('not used by berth');
  },
} as unknown as Tracer;

beforeAll(() => {
  context.setGlobalContextManager(new StoredContextManager());
  trace.setGlobalTracerProvider({ getTracer: () => tracer });
});

afterAll(() => {
  trace.disable();
  context.disable();
});

const caller: SpanContext = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 };

describe('OpenTelemetry', () => {
  it("captures the active span as the job's traceparent at enqueue", async () => {
    const { driver } = memoryOnManualClock();
    const job = defineJob({ name: 'traced', run: () => undefined });
    const client = createClient({ driver });
    const active = trace.setSpan(context.active(), trace.wrapSpanContext(caller));
    const { id } = await context.with(active, () => client.enqueue(job, null));
    expect((await driver.get(id))?.traceparent).toBe(`00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`);
    const untraced = await client.enqueue(job, null);
    expect((await driver.get(untraced.id))?.traceparent).toBeUndefined();
  });

  it("runs each attempt in a span continuing the job's traceparent, ended with its outcome", async () => {
    const { driver, clock } = memoryOnManualClock();
    let inside: SpanContext | undefined;
    const job = defineJob({
      name: 'spanned',
      retry: { maxAttempts: 2, backoff: { initialMs: 10, jitter: 0 } },
      run: ({ attempt }) => {
        inside = trace.getActiveSpan()?.spanContext();
        if (attempt === 1) throw new Error('first fails');
        return 'ok';
      },
    });
    const worker = createWorker({
      driver,
      jobs: [job],
      concurrency: 1,
      visibilityTimeoutMs: 30_000,
      pollIntervalMs: 10,
      logger: recordingLogger().logger,
    });
    await worker.start();
    recorded.length = 0;
    const client = createClient({ driver });
    const { id } = await client.enqueue(job, null, {
      traceparent: `00-${'c'.repeat(32)}-${'d'.repeat(16)}-01`,
    });
    await driveToState(driver, clock, id, 'completed', { stepMs: 10 });
    await worker.stop({ graceMs: 0 });
    const spans = recorded.filter((span) => span.name === 'berth.job spanned');
    expect(spans).toHaveLength(2);
    for (const span of spans) {
      expect(span.parent).toMatchObject({
        traceId: 'c'.repeat(32),
        spanId: 'd'.repeat(16),
        isRemote: true,
      });
      expect(span.ended).toBe(true);
      expect(span.attributes).toMatchObject({ 'berth.job.id': id, 'berth.job.name': 'spanned' });
    }
    expect(spans.map((span) => span.attributes['berth.job.attempt'])).toEqual([1, 2]);
    expect(spans.map((span) => span.status?.code)).toEqual([
      SpanStatusCode.ERROR,
      SpanStatusCode.OK,
    ]);
    expect(inside?.spanId).toBe(spans[1]?.context.spanId);
  });
});

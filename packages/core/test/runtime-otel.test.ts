import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type Context,
  type ContextManager,
  context,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  SpanKind,
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
  kind?: number;
  links: readonly { context: SpanContext }[];
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
    options: {
      attributes?: Record<string, unknown>;
      kind?: number;
      links?: { context: SpanContext }[];
    } = {},
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
      ...(options.kind === undefined ? {} : { kind: options.kind }),
      links: options.links ?? [],
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
      updateName(next) {
        entry.name = next;
        return span;
      },
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
  it("an enqueue runs in a PRODUCER span (send <queue>) under the caller's span, and the job's traceparent is that span", async () => {
    const { driver } = memoryOnManualClock();
    const job = defineJob({ name: 'traced', queue: 'mail', run: () => undefined });
    const client = createClient({ driver });
    recorded.length = 0;
    const active = trace.setSpan(context.active(), trace.wrapSpanContext(caller));
    const { id } = await context.with(active, () => client.enqueue(job, null));
    const [send] = recorded;
    expect(send).toMatchObject({
      name: 'send mail',
      kind: SpanKind.PRODUCER,
      parent: { traceId: caller.traceId, spanId: caller.spanId },
      ended: true,
      status: { code: SpanStatusCode.OK },
      attributes: {
        'messaging.system': 'berth',
        'messaging.operation.type': 'send',
        'messaging.destination.name': 'mail',
        'messaging.message.id': id,
        'berth.job.name': 'traced',
      },
    });
    expect((await driver.get(id))?.traceparent).toBe(
      `00-${caller.traceId}-${send?.context.spanId}-01`,
    );
    // A traceparent given wins, and no span is made for it.
    recorded.length = 0;
    const given = `00-${'e'.repeat(32)}-${'1'.repeat(16)}-01`;
    const explicit = await client.enqueue(job, null, { traceparent: given });
    expect((await driver.get(explicit.id))?.traceparent).toBe(given);
  });

  it('enqueueMany runs in one PRODUCER span for the batch, and a refused enqueue ends its span as an error', async () => {
    const { driver } = memoryOnManualClock();
    const job = defineJob({ name: 'batched', run: () => undefined });
    const client = createClient({ driver });
    recorded.length = 0;
    const results = await client.enqueueMany([
      { job, payload: 1 },
      { job, payload: 2 },
    ]);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      name: 'send default',
      attributes: { 'messaging.batch.message_count': 2 },
    });
    for (const { id } of results) {
      expect((await driver.get(id))?.traceparent).toContain(recorded[0]?.context.spanId);
    }
    recorded.length = 0;
    await expect(client.enqueue(job, null, { priority: 'high' as never })).rejects.toThrow();
    expect(recorded[0]?.status?.code).toBe(SpanStatusCode.ERROR);
    expect(recorded[0]?.ended).toBe(true);
  });

  it('each step execution runs in a span under the attempt span; a memoized step makes none', async () => {
    const { driver, clock } = memoryOnManualClock();
    const job = defineJob({
      name: 'stepped',
      retry: { maxAttempts: 2, backoff: { initialMs: 10, jitter: 0 } },
      run: async ({ step, attempt }) => {
        await step.run('load', () => 'loaded');
        if (attempt === 1) throw new Error('fails after the step');
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
    const client = createClient({ driver });
    recorded.length = 0;
    const { id } = await client.enqueue(job, null);
    await driveToState(driver, clock, id, 'completed', { stepMs: 10 });
    await worker.stop({ graceMs: 0 });
    const attempts = recorded.filter((span) => span.name === 'berth.job stepped');
    const steps = recorded.filter((span) => span.name === 'berth.step load');
    expect(steps).toHaveLength(1);
    expect(steps[0]?.parent?.spanId).toBe(attempts[0]?.context.spanId);
    expect(steps[0]).toMatchObject({
      kind: SpanKind.INTERNAL,
      ended: true,
      attributes: { 'berth.step.attempt': 1 },
    });
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
      expect(span.attributes).toMatchObject({
        'berth.job.id': id,
        'berth.job.name': 'spanned',
        'messaging.operation.type': 'process',
        'messaging.destination.name': 'default',
        'messaging.message.id': id,
      });
      expect(span.kind).toBe(SpanKind.CONSUMER);
      expect(span.links.map((link) => link.context.spanId)).toEqual(['d'.repeat(16)]);
    }
    expect(spans.map((span) => span.attributes['berth.job.attempt'])).toEqual([1, 2]);
    expect(spans.map((span) => span.status?.code)).toEqual([
      SpanStatusCode.ERROR,
      SpanStatusCode.OK,
    ]);
    expect(inside?.spanId).toBe(spans[1]?.context.spanId);
  });
});

import { loadedOtel, loadOtel, type OtelApi } from './load-otel.js';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export interface ParsedTraceparent {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
}

/** A W3C `traceparent` header's parts, or `undefined` for anything else. */
export function parseTraceparent(value: string | undefined): ParsedTraceparent | undefined {
  const match = value === undefined ? null : TRACEPARENT.exec(value);
  if (match === null || match[1] === 'ff') return undefined;
  const [, , traceId = '', spanId = '', flags = '00'] = match;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) };
}

/** A span context as a W3C `traceparent` header. */
export function toTraceparent(context: {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
}): string {
  const flags = (context.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}

function fromActive(api: OtelApi): string | undefined {
  const context = api.trace.getSpan(api.context.active())?.spanContext();
  if (context === undefined || !api.isSpanContextValid(context)) return undefined;
  return toTraceparent(context);
}

/**
 * The active span as a W3C `traceparent`, when OpenTelemetry is installed and a span is active.
 * Read before any await when the API has loaded, so the caller's context is the one captured.
 */
export async function activeTraceparent(): Promise<string | undefined> {
  const ready = loadedOtel();
  if (ready !== undefined) return fromActive(ready);
  const api = await loadOtel();
  return api === undefined ? undefined : fromActive(api);
}

import type { IncomingMessage } from 'node:http';
import { type ByIdOptions, jobInvalid } from '@berth/core';
import type { ResolvedOptions } from '../options.js';
import type { ThroughputSampler } from '../throughput/sampler.js';

/** What an API route sees of its request. */
export interface RequestContext {
  readonly options: ResolvedOptions;
  readonly request: IncomingMessage;
  readonly query: URLSearchParams;
  /** The pattern's captured path segments, decoded. */
  readonly params: readonly string[];
  /** The tenant every read and action is scoped to, when `tenant` is set. */
  readonly tenantId: string | undefined;
  readonly sampler: ThroughputSampler;
  body(): Promise<unknown>;
}

export interface Route {
  readonly method: 'GET' | 'POST';
  /** Matched against the path below `<basePath>/api`. */
  readonly pattern: RegExp;
  run(context: RequestContext): Promise<unknown>;
}

/** The by-id options that keep a call inside the request's tenant. */
export const scope = (context: RequestContext): ByIdOptions =>
  context.tenantId === undefined ? {} : { tenantId: context.tenantId };

/** The first captured segment: every by-id route has one. */
/** A query parameter's value; absent and empty alike read as not given. */
export const queryText = (query: URLSearchParams, name: string): string | undefined => {
  const value = query.get(name);
  return value === null || value === '' ? undefined : value;
};

export const idParam = (context: RequestContext): string => context.params[0] ?? '';

/** An action's body, which must be a JSON object (`{}` when it carries nothing). */
export async function objectBody(context: RequestContext): Promise<Record<string, unknown>> {
  const body = await context.body();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw jobInvalid('body', 'must be a JSON object');
  }
  return body as Record<string, unknown>;
}

import type { Route } from './context.js';

/** The path parameter's pattern: one segment, as `ID` in routes.ts. */
const CAPTURE = '([^/]+)';
const DOCUMENTED = /^(\/[A-Za-z0-9_-]+|\/:[a-z][A-Za-z]*)+$/;

/** Parameters named for what they hold, by the segment before them. */
const NAMED: Readonly<Record<string, string>> = { jobs: ':id', backfills: ':runId' };

/** The named parameter, else the segment before it made singular: `queues/([^/]+)` → `:queue`. */
const parameterAfter = (segment: string | undefined): string =>
  segment === undefined ? ':id' : (NAMED[segment] ?? `:${segment.replace(/s$/, '')}`);

/**
 * A route as the README documents it: `POST /api/jobs/:id/retry`. Read from the route's own
 * pattern, so the README test compares the documentation with what the server really answers.
 */
export function documentedRoute(route: Route): string {
  const source = route.pattern.source;
  if (!source.startsWith('^') || !source.endsWith('$')) {
    throw new Error(`route pattern ${source} is not anchored at both ends`);
  }
  // The capture holds a `/` of its own: mark it before splitting the path into segments.
  const segments = source
    .slice(1, -1)
    .replaceAll('\\/', '/')
    .replaceAll(CAPTURE, '\u0000')
    .split('/')
    .slice(1);
  const path = segments
    .map((segment, index) => (segment === '\u0000' ? parameterAfter(segments[index - 1]) : segment))
    .join('/');
  if (!DOCUMENTED.test(`/${path}`)) {
    throw new Error(`route pattern ${source} is more than a path with parameters`);
  }
  return `${route.method} /api/${path}`;
}

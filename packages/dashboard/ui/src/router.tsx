import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { config } from './config';

export type Route =
  | { readonly page: 'overview' }
  | { readonly page: 'jobs'; readonly query: URLSearchParams }
  | { readonly page: 'job'; readonly id: string }
  | { readonly page: 'dead-letters'; readonly query: URLSearchParams }
  | { readonly page: 'schedules'; readonly query: URLSearchParams }
  | { readonly page: 'events'; readonly query: URLSearchParams }
  | { readonly page: 'lifecycle'; readonly query: URLSearchParams }
  | { readonly page: 'backfills'; readonly query: URLSearchParams }
  | { readonly page: 'outbox' }
  | { readonly page: 'find'; readonly id: string }
  | { readonly page: 'enqueue' }
  | { readonly page: 'not-found' };

const NAVIGATE = 'berth:navigate';

/** A path inside the dashboard (`/jobs?state=dead`) as a URL on this server. */
export const href = (path: string): string => `${config.basePath}${path}`;

export function parseRoute(location: Location): Route {
  const { pathname } = location;
  const path = pathname.startsWith(config.basePath)
    ? pathname.slice(config.basePath.length) || '/'
    : pathname;
  const query = new URLSearchParams(location.search);
  if (path === '/' || path === '') return { page: 'overview' };
  if (path === '/jobs') return { page: 'jobs', query };
  const job = /^\/jobs\/([^/]+)$/.exec(path);
  if (job?.[1] !== undefined) return { page: 'job', id: decodeURIComponent(job[1]) };
  if (path === '/dead-letters') return { page: 'dead-letters', query };
  if (path === '/schedules') return { page: 'schedules', query };
  if (path === '/events') return { page: 'events', query };
  if (path === '/lifecycle') return { page: 'lifecycle', query };
  if (path === '/backfills') return { page: 'backfills', query };
  if (path === '/outbox') return { page: 'outbox' };
  if (path === '/find') return { page: 'find', id: query.get('id') ?? '' };
  if (path === '/enqueue') return { page: 'enqueue' };
  return { page: 'not-found' };
}

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const url = href(path);
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  window.dispatchEvent(new Event(NAVIGATE));
}

/** The current route, following links, back and forward. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location));
  useEffect(() => {
    const update = () => setRoute(parseRoute(window.location));
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATE, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATE, update);
    };
  }, []);
  return route;
}

interface LinkProps {
  readonly to: string;
  readonly children: ComponentChildren;
  readonly class?: string;
  readonly rel?: string;
  readonly 'aria-label'?: string;
  readonly title?: string;
  readonly 'aria-current'?: 'page' | undefined;
}

/** A real link (open in a new tab works); a plain click navigates without a reload. */
export function Link({ to, children, ...rest }: LinkProps) {
  const onClick = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    navigate(to);
  };
  return (
    <a {...rest} href={href(to)} onClick={onClick}>
      {children}
    </a>
  );
}

/** `/jobs?state=dead` from a path and the non-empty entries of a query. */
export function withQuery(path: string, entries: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(entries)) if (value) query.set(key, value);
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

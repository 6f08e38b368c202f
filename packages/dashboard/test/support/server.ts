import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDashboard, type DashboardHandler, type DashboardOptions } from '../../src/index.js';

export interface TestDashboard {
  readonly origin: string;
  /** Origin plus base path, no trailing slash. */
  readonly base: string;
  readonly dashboard: DashboardHandler;
  readonly server: Server;
  close(): Promise<void>;
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A dashboard on its own `node:http` server on a free loopback port. */
export async function startDashboard(options: DashboardOptions): Promise<TestDashboard> {
  const dashboard = createDashboard(options);
  const server = createServer(dashboard);
  const origin = await listen(server);
  return {
    origin,
    base: `${origin}${(options.basePath ?? '').replace(/\/+$/, '')}`,
    dashboard,
    server,
    close: async () => {
      dashboard.close();
      await closeServer(server);
    },
  };
}

/** The page's cookie and CSRF token, as a browser holds them after loading the page. */
export interface Session {
  readonly cookie: string;
  readonly csrf: string;
}

export async function openSession(base: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/`, { headers });
  const html = await response.text();
  const setCookie = response.headers.get('set-cookie') ?? '';
  const cookie = setCookie.split(';')[0] ?? '';
  const config = /<script type="application\/json" id="berth-config">(.*?)<\/script>/.exec(html);
  const csrf = config?.[1] === undefined ? '' : (JSON.parse(config[1]) as { csrf: string }).csrf;
  return { cookie, csrf, html, response };
}

export interface Answer<T> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

export async function getApi<T = unknown>(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Answer<T>> {
  const response = await fetch(`${base}/api${path}`, { headers });
  return { status: response.status, body: (await response.json()) as T, headers: response.headers };
}

/** An action as the page sends it: JSON, the cookie and the token. */
export async function postApi<T = unknown>(
  base: string,
  path: string,
  session: Session,
  body: unknown = {},
  headers: Record<string, string> = {},
): Promise<Answer<T>> {
  const response = await fetch(`${base}/api${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: session.cookie,
      'x-berth-csrf': session.csrf,
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T, headers: response.headers };
}

/** A GET with headers fetch will not send as given (a foreign `Host`). */
export function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

/**
 * A request whose target is sent exactly as given (`..`, `//`, `%2e`, backslashes): fetch and
 * `new URL` would normalise it first.
 */
export function rawRequest(
  origin: string,
  target: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const sent = request(
      { hostname, port, path: target, method: options.method ?? 'GET', headers: options.headers },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    sent.on('error', reject);
    sent.end(options.body);
  });
}

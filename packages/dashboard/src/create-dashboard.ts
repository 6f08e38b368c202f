import type { IncomingMessage, ServerResponse } from 'node:http';
import { TENANT_SCAN } from './api/tenant-overview.js';
import type { PageConfig } from './api-types.js';
import { type Assets, loadAssets } from './http/assets.js';
import { BodyError, readJson } from './http/body.js';
import { admit } from './http/gate.js';
import {
  securityHeaders,
  sendError,
  sendHtml,
  sendJson,
  sendProblem,
  sendText,
} from './http/respond.js';
import { matchRoute } from './http/routes.js';
import { type DashboardOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { createCsrf } from './security/csrf.js';
import { createThroughputSampler } from './throughput/sampler.js';

/** Called when a request is not the dashboard's: Express's and middie's `next`. */
export type NextHandler = (error?: unknown) => void;

/**
 * A standard Node request handler. Mount it as it is in `node:http`, Express and Fastify
 * (through middie), or in Hono on `@hono/node-server`.
 */
export interface DashboardHandler {
  (request: IncomingMessage, response: ServerResponse, next?: NextHandler): void;
  /** Stops the throughput sampler's timer. The driver stays open: it is the app's. */
  close(): void;
}

/** Express mounted below a path rewrites `url` and keeps the whole path in `originalUrl`. */
const fullUrl = (request: IncomingMessage): string =>
  (request as { originalUrl?: string }).originalUrl ?? request.url ?? '/';

/** The path below the mount point, or undefined when the request is not the dashboard's. */
function below(pathname: string, basePath: string): string | undefined {
  if (basePath === '') return pathname;
  if (pathname === basePath) return '/';
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined;
}

const ASSET_NAME = /^[\w.-]+$/;

export function createDashboard(options: DashboardOptions): DashboardHandler {
  const resolved: ResolvedOptions = resolveOptions(options);
  const { basePath, driver } = resolved;
  const sampler = createThroughputSampler(driver, resolved.sampleMs);
  const csrf = createCsrf(resolved.csrfSecret, basePath === '' ? '/' : basePath);
  let assets: Assets | undefined;

  async function api(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    query: URLSearchParams,
    tenantId: string | undefined,
  ): Promise<void> {
    const method = request.method ?? 'GET';
    const { match, otherMethod } = matchRoute(method, path);
    if (match === undefined) {
      if (otherMethod) response.setHeader('Allow', method === 'POST' ? 'GET, HEAD' : 'POST');
      sendProblem(response, otherMethod ? 405 : 404, {
        code: otherMethod ? 'METHOD_NOT_ALLOWED' : 'NOT_FOUND',
        message: `${method} ${path} is not a dashboard API route`,
      });
      return;
    }
    if (match.route.method === 'POST') {
      if (resolved.readOnly) {
        sendProblem(response, 403, {
          code: 'READ_ONLY',
          message: 'This dashboard is read-only: it takes no actions.',
        });
        return;
      }
      const refusal = csrf.refusal(request);
      if (refusal !== undefined) {
        sendProblem(response, 403, { code: 'CSRF_REFUSED', message: `Refused: ${refusal}.` });
        return;
      }
    }
    try {
      const body = await match.route.run({
        options: resolved,
        request,
        query,
        params: match.params,
        tenantId,
        sampler,
        body: () => readJson(request),
      });
      sendJson(response, 200, body);
    } catch (error) {
      if (error instanceof BodyError) {
        sendProblem(response, 400, { code: 'BODY_INVALID', message: error.message });
      } else {
        sendError(response, error);
      }
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse, next?: NextHandler) {
    let url: URL;
    try {
      url = new URL(fullUrl(request), 'http://dashboard.invalid');
    } catch {
      sendText(response, 400, 'Bad request URL\n');
      return;
    }
    const path = below(url.pathname, basePath);
    if (path === undefined) {
      if (next !== undefined) next();
      else sendText(response, 404, 'Not found\n');
      return;
    }
    securityHeaders(response);
    const isApi = path === '/api' || path.startsWith('/api/');
    const admission = await admit(resolved, request, response, isApi);
    if (admission === undefined) return;
    if (isApi) {
      await api(request, response, path.slice('/api'.length), url.searchParams, admission.tenantId);
      return;
    }
    const method = request.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      sendText(response, 405, 'Method not allowed\n');
      return;
    }
    if (path.startsWith('/assets/')) {
      const name = path.slice('/assets/'.length);
      assets ??= loadAssets();
      if (!ASSET_NAME.test(name) || !assets.serve(name, request, response)) {
        sendText(response, 404, 'Not found\n');
      }
      return;
    }
    assets ??= loadAssets();
    const config: PageConfig = {
      basePath,
      csrf: csrf.issue(request, response),
      readOnly: resolved.readOnly,
      tenant: admission.tenantId ?? null,
      loopbackOnly: resolved.auth === undefined,
      title: resolved.title,
      refreshMs: resolved.refreshMs,
      driver: driver.name,
      deadLetterScan: resolved.deadLetterScan,
      tenantScan: TENANT_SCAN,
    };
    sendHtml(response, assets.page(basePath, config), method === 'HEAD');
  }

  const handler = (request: IncomingMessage, response: ServerResponse, next?: NextHandler) => {
    handle(request, response, next).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, error);
      else response.destroy();
    });
  };
  return Object.assign(handler, { close: () => sampler.stop() });
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { TENANT_SCAN } from './api/tenant-overview.js';
import type { PageConfig } from './api-types.js';
import { type Assets, loadAssets } from './http/assets.js';
import { BodyError, readJson } from './http/body.js';
import { admit } from './http/gate.js';
import { isNormalPath, normalisePath, rawPathOf } from './http/normal-path.js';
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

/** The path `new URL` reads, which takes `//x/…` for a host and path. */
function urlReading(rawPath: string): string {
  try {
    return new URL(rawPath, 'http://dashboard.invalid').pathname;
  } catch {
    return rawPath;
  }
}

/** 400 for a path that is not its normalised form: JSON for the API, text for the page. */
function refuseNotNormal(request: IncomingMessage, response: ServerResponse, rawPath: string) {
  const normal = normalisePath(rawPath);
  const message = `The path ${JSON.stringify(rawPath)} is not in normal form (it reads as ${JSON.stringify(normal)}): the dashboard answers only normal paths, so it sees the same path as the app's own routes and guards.`;
  const fix = `Request ${normal} itself.`;
  securityHeaders(response);
  const apiLike = /\/api(\/|$)/.test(normal) || request.headers.accept?.includes('json') === true;
  if (apiLike) sendProblem(response, 400, { code: 'PATH_NOT_NORMAL', message, fix });
  else sendText(response, 400, `PATH_NOT_NORMAL ${message}\n${fix}\n`);
}

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
        sendError(response, error, { tenantId });
      }
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse, next?: NextHandler) {
    const rawPath = rawPathOf(fullUrl(request));
    if (!isNormalPath(rawPath)) {
      // Another app's path however it is read: not the dashboard's to answer.
      const readings = [normalisePath(rawPath), urlReading(rawPath)];
      if (readings.every((path) => below(path, basePath) === undefined) && next !== undefined) {
        next();
        return;
      }
      refuseNotNormal(request, response, rawPath);
      return;
    }
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
      idSearchScan: resolved.idSearchScan,
      tenantScan: TENANT_SCAN,
      outbox: resolved.outbox !== undefined,
    };
    sendHtml(response, assets.page(basePath, config), method === 'HEAD');
  }

  const handler = (request: IncomingMessage, response: ServerResponse, next?: NextHandler) => {
    handle(request, response, next).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, error, { tenantId: undefined });
      else response.destroy();
    });
  };
  return Object.assign(handler, { close: () => sampler.stop() });
}

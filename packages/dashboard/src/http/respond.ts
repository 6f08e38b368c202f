import type { ServerResponse } from 'node:http';
import { isBerthError } from '@berth/core';
import type { JobSummary } from '../api-types.js';
import { dashboardFix, type FixContext } from './fixes.js';

/**
 * Every asset is the package's own: scripts and styles only from this origin, nothing inline,
 * no frames, no form posts elsewhere, no requests anywhere else.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function securityHeaders(response: ServerResponse): void {
  response.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Content-Length', Buffer.byteLength(text));
  response.end(text);
}

export function sendText(response: ServerResponse, status: number, text: string): void {
  response.statusCode = status;
  response.setHeader('Content-Type', 'text/plain; charset=utf-8');
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Content-Length', Buffer.byteLength(text));
  response.end(text);
}

/** The page: never cached, since it carries the CSRF token. */
export function sendHtml(response: ServerResponse, html: string, headOnly: boolean): void {
  response.statusCode = 200;
  response.setHeader('Content-Type', 'text/html; charset=utf-8');
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Content-Length', Buffer.byteLength(html));
  response.end(headOnly ? undefined : html);
}

/** The dashboard's own refusals (auth, CSRF, read-only) and the driver's, as one JSON shape. */
export interface Problem {
  readonly code: string;
  readonly message: string;
  readonly fix?: string;
  /** An ambiguous part of an id: the jobs it could mean. */
  readonly candidates?: readonly JobSummary[];
}

/** A route's own refusal, answered with its status and problem as they are. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.message);
  }
}

export function sendProblem(response: ServerResponse, status: number, problem: Problem): void {
  sendJson(response, status, { error: problem });
}

const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  JOB_INVALID: 400,
  JOB_PAGE_INVALID: 400,
  CONFIG_INVALID: 400,
  JOB_NOT_FOUND: 404,
  JOB_DUPLICATE: 409,
  JOB_NOT_REQUEUEABLE: 409,
  JOB_NOT_CANCELLABLE: 409,
  JOB_NOT_PROMOTABLE: 409,
  JOB_NOT_DELETABLE: 409,
  STEP_INVALID: 409,
  BACKFILL_NOT_FOUND: 404,
  BACKFILL_NOT_ACTIVE: 409,
  BACKFILL_RUNNING: 409,
  SCHEDULE_NOT_FOUND: 404,
  DRIVER_UNAVAILABLE: 503,
  DRIVER_NOT_MIGRATED: 503,
  DRIVER_CLOSED: 503,
};

/**
 * A driver refusal keeps its code and detail (the code is its own field: `message` does not
 * repeat it) with the dashboard's fix; anything else is a bare 500 that leaks nothing.
 */
export function problemOf(
  error: unknown,
  context: FixContext,
): { status: number; problem: Problem } {
  if (isBerthError(error)) {
    return {
      status: STATUS_BY_CODE[error.code] ?? 500,
      problem: {
        code: error.code,
        message: error.detail,
        fix: dashboardFix(error.code, error.fix, context),
      },
    };
  }
  return {
    status: 500,
    problem: { code: 'DASHBOARD_FAILED', message: 'the dashboard failed to answer this request' },
  };
}

export function sendError(response: ServerResponse, error: unknown, context: FixContext): void {
  if (error instanceof ProblemError) {
    sendProblem(response, error.status, error.problem);
    return;
  }
  const { status, problem } = problemOf(error, context);
  sendProblem(response, status, problem);
}

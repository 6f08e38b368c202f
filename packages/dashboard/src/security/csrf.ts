import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CSRF_COOKIE = 'berth_csrf';
export const CSRF_HEADER = 'x-berth-csrf';
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Signed double-submit tokens. The page's GET sets a random HttpOnly, SameSite=Strict cookie and
 * embeds HMAC(secret, cookie) in the page; an action must send that token in a header, with the
 * cookie. Another site can make the browser send the cookie but can neither read it nor the page,
 * so it cannot make the header. Actions must also be JSON (a cross-site form cannot send JSON
 * without a preflight), and a browser-stated cross-site origin is refused outright.
 */
export interface Csrf {
  /** The page's token; sets the cookie when the request has none. */
  issue(request: IncomingMessage, response: ServerResponse): string;
  /** Why an action request fails the checks, or undefined when it passes. */
  refusal(request: IncomingMessage): string | undefined;
}

function readCookie(request: IncomingMessage): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === CSRF_COOKIE) {
      const candidate = value.join('=');
      return COOKIE_VALUE.test(candidate) ? candidate : undefined;
    }
  }
  return undefined;
}

const isTls = (request: IncomingMessage): boolean =>
  (request.socket as { encrypted?: boolean }).encrypted === true;

function sameOrigin(request: IncomingMessage): string | undefined {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return `Sec-Fetch-Site is ${site}`;
  const origin = request.headers.origin;
  if (origin === undefined) return undefined;
  try {
    if (new URL(origin).host === request.headers.host) return undefined;
  } catch {
    // An unreadable Origin is refused like a foreign one.
  }
  return `Origin ${origin} is not this dashboard's`;
}

export function createCsrf(secret: Buffer, cookiePath: string): Csrf {
  const sign = (value: string): Buffer => createHmac('sha256', secret).update(value).digest();
  return {
    issue(request, response) {
      let cookie = readCookie(request);
      if (cookie === undefined) {
        cookie = randomBytes(32).toString('base64url');
        const secure = isTls(request) ? '; Secure' : '';
        response.appendHeader(
          'Set-Cookie',
          `${CSRF_COOKIE}=${cookie}; Path=${cookiePath}; HttpOnly; SameSite=Strict${secure}`,
        );
      }
      return sign(cookie).toString('base64url');
    },
    refusal(request) {
      const type = request.headers['content-type'] ?? '';
      if (!/^application\/json\b/i.test(type)) return 'an action must be sent as application/json';
      const crossSite = sameOrigin(request);
      if (crossSite !== undefined) return crossSite;
      const cookie = readCookie(request);
      const header = request.headers[CSRF_HEADER];
      if (cookie === undefined || typeof header !== 'string') return 'the CSRF token is missing';
      const given = Buffer.from(header, 'base64url');
      const expected = sign(cookie);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return 'the CSRF token does not match';
      }
      return undefined;
    },
  };
}

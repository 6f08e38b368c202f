import { createHash, timingSafeEqual } from 'node:crypto';
import { configInvalid } from '@berth/core';
import type { DashboardAuth } from '../options.js';

export interface BasicAuthOptions {
  readonly username: string;
  readonly password: string;
  /** Shown by the browser's sign-in prompt. Default `Berth`. */
  readonly realm?: string;
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * An `auth` for HTTP Basic credentials: compared in constant time, and a refused request is
 * answered with a challenge so a browser asks for them. Serve it over TLS.
 */
export function basicAuth(options: BasicAuthOptions): DashboardAuth {
  if (!options.username || !options.password) {
    throw configInvalid({
      option: 'basicAuth',
      reason: 'needs a non-empty username and password',
      example: "basicAuth({ username: 'ops', password: process.env.DASHBOARD_PASSWORD ?? '' })",
    });
  }
  const expected = digest(`${options.username}:${options.password}`);
  const realm = (options.realm ?? 'Berth').replace(/["\\\r\n]/g, '');
  return (request, response) => {
    const header = request.headers.authorization ?? '';
    const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header);
    const given = match?.[1] === undefined ? '' : Buffer.from(match[1], 'base64').toString('utf8');
    if (timingSafeEqual(digest(given), expected)) return true;
    response.setHeader('WWW-Authenticate', `Basic realm="${realm}", charset="UTF-8"`);
    return false;
  };
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ListPosition } from '../contract/driver.js';
import { jobPageInvalid } from '../errors/refusals.js';

// A fixed key: cursors are opaque and tamper-evident, not secret. A cursor must survive a restart
// and be readable by any process on the same queue, so no per-process key is possible.
const CURSOR_KEY = 'berth.list-cursor.v1';
const PREFIX = 'c1.';

const mac = (body: string): Buffer =>
  createHmac('sha256', CURSOR_KEY).update(body).digest().subarray(0, 12);

/** The opaque cursor for a row's list position. */
export function encodeCursor(position: ListPosition): string {
  const body = Buffer.from(`${position.createdAt}:${position.seq}`, 'utf8').toString('base64url');
  return `${PREFIX}${body}.${mac(body).toString('base64url')}`;
}

/** The position a cursor names; JOB_PAGE_INVALID for anything no page produced. */
export function decodeCursor(cursor: unknown): ListPosition {
  if (typeof cursor !== 'string' || !cursor.startsWith(PREFIX) || cursor.length > 200) {
    throw jobPageInvalid('cursor', cursor);
  }
  const [body, tag, ...rest] = cursor.slice(PREFIX.length).split('.');
  if (body === undefined || tag === undefined || rest.length > 0)
    throw jobPageInvalid('cursor', cursor);
  // Compared as text: base64url decoding ignores trailing junk, so bytes alone would accept it.
  const given = Buffer.from(tag, 'utf8');
  const expected = Buffer.from(mac(body).toString('base64url'), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw jobPageInvalid('cursor', cursor);
  }
  const match = /^(\d{1,16}):(\d{1,16})$/.exec(Buffer.from(body, 'base64url').toString('utf8'));
  if (match === null) throw jobPageInvalid('cursor', cursor);
  return { createdAt: Number(match[1]), seq: Number(match[2]) };
}

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ListPosition } from '../contract/driver.js';
import type { JobState } from '../contract/states.js';
import { configInvalid, jobPageInvalid } from '../errors/refusals.js';

const PREFIX = 'c2.';
/** The shortest `cursorSecret` a driver accepts. */
export const MIN_CURSOR_SECRET_LENGTH = 16;

/** The filters a list page was made under; a cursor is valid only under the same ones. */
export interface CursorFilters {
  readonly state?: JobState | undefined;
  readonly queue?: string | undefined;
  readonly name?: string | undefined;
  readonly tenantId?: string | undefined;
}

/** Which request field the cursor is for: a page's `next` goes to `after`, `prev` to `before`. */
export type CursorDirection = 'after' | 'before';

/** Makes and reads list cursors signed with one deployment's key. */
export interface CursorCodec {
  encode(position: ListPosition, filters: CursorFilters, direction: CursorDirection): string;
  /** The position a cursor names; JOB_PAGE_INVALID for anything no page under `filters` produced. */
  decode(cursor: unknown, filters: CursorFilters, direction: CursorDirection): ListPosition;
}

/**
 * The key a driver signs cursors with when the app sets no `cursorSecret`: derived from the
 * driver and its namespace (schema, key prefix, stream names), so every process of one
 * deployment agrees. It is not secret: set `cursorSecret` to make cursors unforgeable.
 */
export function defaultCursorSecret(driver: string, namespace: string): string {
  return createHash('sha256').update(`berth.cursor:${driver}:${namespace}`).digest('base64url');
}

/**
 * A codec whose cursors carry a row's list position and an HMAC-SHA256 tag over that position,
 * the filters of the list that made it and the direction it walks, keyed by `secret`: a cursor
 * from another filtered list, another direction or another deployment, or one tampered with, is
 * refused. `secret` must be a string of at least MIN_CURSOR_SECRET_LENGTH characters
 * (CONFIG_INVALID, option `cursorSecret`, otherwise; its fix shows a call of `factory`).
 */
export function createCursorCodec(secret: string, factory = 'createMemoryDriver'): CursorCodec {
  if (typeof secret !== 'string' || secret.length < MIN_CURSOR_SECRET_LENGTH) {
    throw configInvalid({
      option: 'cursorSecret',
      reason: `must be a string of at least ${MIN_CURSOR_SECRET_LENGTH} characters`,
      example: `${factory}({ ..., cursorSecret: process.env.BERTH_CURSOR_SECRET })`,
    });
  }
  const tag = (body: string, filters: CursorFilters, direction: CursorDirection): string => {
    const bound = JSON.stringify([
      direction,
      filters.state ?? null,
      filters.queue ?? null,
      filters.name ?? null,
      filters.tenantId ?? null,
      body,
    ]);
    return createHmac('sha256', secret)
      .update(bound)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  };
  return {
    encode(position, filters, direction) {
      const body = Buffer.from(`${position.createdAt}:${position.seq}`, 'utf8').toString(
        'base64url',
      );
      return `${PREFIX}${body}.${tag(body, filters, direction)}`;
    },
    decode(cursor, filters, direction) {
      if (typeof cursor !== 'string' || !cursor.startsWith(PREFIX) || cursor.length > 200) {
        throw jobPageInvalid('cursor', cursor);
      }
      const [body, given, ...rest] = cursor.slice(PREFIX.length).split('.');
      if (body === undefined || given === undefined || rest.length > 0) {
        throw jobPageInvalid('cursor', cursor);
      }
      // Compared as text: base64url decoding ignores trailing junk, so bytes alone would accept it.
      const expected = Buffer.from(tag(body, filters, direction), 'utf8');
      const actual = Buffer.from(given, 'utf8');
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
        throw jobPageInvalid('cursor', cursor);
      }
      const match = /^(\d{1,16}):(\d{1,16})$/.exec(Buffer.from(body, 'base64url').toString('utf8'));
      if (match === null) throw jobPageInvalid('cursor', cursor);
      return { createdAt: Number(match[1]), seq: Number(match[2]) };
    },
  };
}

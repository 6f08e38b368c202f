import {
  filtersLifecycleRead,
  LIFECYCLE_READ_SCAN,
  type LifecycleBackend,
  type LifecycleEvent,
  type LifecycleEventType,
  lifecyclePositionInvalid,
  matchesLifecycleRead,
} from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { asArray, asString, fieldsOf, ReplyShapeError } from './decode.js';

// The lifecycle stream's reads. The scripts of the changes write it (src/lua/include/lifecycle.lua:
// the fields, the trim); an event's position is its entry's id, `<ms>-<seq>` as the server made it.

/** A stream id's part: an unsigned 64-bit integer, written as Redis writes it (no leading zero). */
const ID_PART = '(0|[1-9][0-9]{0,19})';
const POSITION = new RegExp(`^${ID_PART}-${ID_PART}$`);
const MAX_PART = 2n ** 64n - 1n;

type Id = readonly [bigint, bigint];

/** A position as (ms, seq), or undefined for text no stream id could be. */
function idOf(text: string): Id | undefined {
  const match = POSITION.exec(text);
  if (match === null) return undefined;
  const ms = BigInt(match[1] as string);
  const seq = BigInt(match[2] as string);
  return ms <= MAX_PART && seq <= MAX_PART ? [ms, seq] : undefined;
}

const isAfter = (a: Id, b: Id): boolean => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);

function eventOf(entry: unknown): LifecycleEvent {
  const [id, raw] = asArray(entry, 'lifecycle');
  const fields = fieldsOf(raw, 'lifecycle');
  const text = (field: string): string => {
    const value = fields.get(field);
    if (value === undefined) throw new ReplyShapeError(`lifecycle entry lacks ${field}`);
    return value;
  };
  const tenantId = text('u');
  return {
    position: asString(id, 'lifecycle'),
    // Written only by the scripts (src/lua/include/lifecycle.lua), with a type of the contract's.
    type: text('t') as LifecycleEventType,
    jobId: text('j'),
    name: text('n'),
    queue: text('q'),
    ...(tenantId === '' ? {} : { tenantId }),
    attempt: Number(text('a')),
    at: Number(text('at')),
  };
}

/** `driver.lifecycle` over the stream: a read is one XRANGE (and one XREVRANGE with `after`). */
export function createLifecycleStore(context: RedisContext): LifecycleBackend {
  const { redis, keys } = context;
  const key = keys.lifecycle();
  const newest = async (): Promise<string | undefined> => {
    const [entry] = await redis.xrevrange(key, '+', '-', 'COUNT', 1);
    return entry?.[0];
  };

  return {
    async read(request) {
      const from = request.after === undefined ? undefined : idOf(request.after);
      if (request.after !== undefined && from === undefined) {
        throw lifecyclePositionInvalid(request.after);
      }
      // One past what the walk may examine: the peek that says whether it caught up.
      const count = (filtersLifecycleRead(request) ? LIFECYCLE_READ_SCAN : request.limit) + 1;
      // Nothing follows the largest id, and Redis refuses it as an exclusive start.
      const last = from !== undefined && from[0] === MAX_PART && from[1] === MAX_PART;
      const [entries, end] = await Promise.all([
        last
          ? []
          : redis.xrange(key, from === undefined ? '-' : `(${request.after}`, '+', 'COUNT', count),
        // Sent alongside the walk: an `after` past the newest event was never made here.
        from === undefined ? undefined : newest(),
      ]);
      if (from !== undefined) {
        const newestId = end === undefined ? undefined : idOf(end);
        if (newestId === undefined || isAfter(from, newestId)) {
          throw lifecyclePositionInvalid(request.after as string);
        }
      }
      const events: LifecycleEvent[] = [];
      let examined = 0;
      while (
        examined < entries.length &&
        examined < LIFECYCLE_READ_SCAN &&
        events.length < request.limit
      ) {
        const event = eventOf(entries[examined]);
        examined += 1;
        if (matchesLifecycleRead(event, request)) events.push(event);
      }
      const lastExamined = entries[examined - 1];
      const next = lastExamined === undefined ? request.after : lastExamined[0];
      return {
        events,
        ...(next === undefined ? {} : { next }),
        caughtUp: examined === entries.length,
      };
    },
    end: newest,
    // Each write trims the stream to the retention (src/lua/include/lifecycle.lua).
    trim: async () => 0,
  };
}

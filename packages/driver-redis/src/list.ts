import type { JobState, ListPosition, PositionedJob, ScreenedList } from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { asArray, asString, positionedOf } from './decode.js';
import { memberDigits } from './keys.js';
import { LIST_DUE_LUA, LIST_LUA } from './lua/generated.js';
import { defineScript } from './scripts.js';

const LIST = defineScript('list', LIST_LUA, { readOnly: true });
const LIST_DUE = defineScript('list-due', LIST_DUE_LUA, { readOnly: true });

/** Members one script call scans at most: a walk over a sparse filter takes several calls. */
const SCAN_CAP = 500;

type Source = readonly ['all' | 'queue' | 'name' | 'tenant' | 'state', string];

/**
 * The indexes a page walks. A state filter walks its stored-state index (effective `ready` also
 * walks the delayed and suspended ones, whose due rows read ready); otherwise the narrowest of
 * queue, name, tenant, or every row. The other filters are applied while walking.
 */
function sourcesOf(request: ScreenedList): readonly Source[] {
  const { state } = request;
  if (state !== undefined) {
    const stored: readonly JobState[] =
      state === 'ready' ? ['ready', 'delayed', 'suspended'] : [state];
    return stored.map((one) => ['state', one] as const);
  }
  if (request.queue !== undefined) return [['queue', request.queue]];
  if (request.name !== undefined) return [['name', request.name]];
  if (request.tenantId !== undefined) return [['tenant', request.tenantId]];
  return [['all', '']];
}

const packed = (position: ListPosition): string =>
  memberDigits(position.createdAt) + memberDigits(position.seq);

/** Members are `packed : id`: `;` sorts after `:`, so `(packed;` skips every row at the position. */
function startOf(request: ScreenedList): string {
  if (request.before !== undefined) return `(${packed(request.before)};`;
  if (request.after !== undefined) return `(${packed(request.after)}`;
  return '+';
}

/**
 * How many rows a source can match at most: a delayed or suspended index holds only as many
 * effectively ready rows as are due, so a `ready` page stops there instead of walking every
 * waiting row.
 */
async function reach(
  context: RedisContext,
  request: ScreenedList,
  source: Source,
  now: number,
  want: number,
): Promise<number> {
  const [kind, stored] = source;
  if (request.state !== 'ready' || kind !== 'state' || stored === 'ready') return want;
  const due = Number(await context.run(LIST_DUE, now, [stored, request.queue ?? '']));
  return Math.min(want, due);
}

async function walk(
  context: RedisContext,
  request: ScreenedList,
  source: Source,
  now: number,
  limit: number,
): Promise<PositionedJob[]> {
  const want = await reach(context, request, source, now, limit);
  if (want === 0) return [];
  const direction = request.before === undefined ? 'desc' : 'asc';
  const rows: PositionedJob[] = [];
  let start = startOf(request);
  for (;;) {
    const reply = await context.run(LIST, now, [
      source[0],
      source[1],
      direction,
      start,
      want - rows.length,
      SCAN_CAP,
      request.state ?? '',
      request.queue ?? '',
      request.name ?? '',
      request.tenantId ?? '',
    ]);
    const [found, last, exhausted] = asArray(reply, 'list');
    for (const row of asArray(found, 'list')) rows.push(positionedOf(row, now));
    const lastMember = asString(last, 'list');
    if (rows.length >= want || exhausted === 1 || lastMember === '') return rows;
    start = `(${lastMember}`;
  }
}

const compare = (a: ListPosition, b: ListPosition): number =>
  a.createdAt - b.createdAt || a.seq - b.seq;

/** Up to `limit + 1` rows from the cursor: list order, or nearest first walking `before`. */
export async function list(
  context: RedisContext,
  request: ScreenedList,
): Promise<readonly PositionedJob[]> {
  const now = context.clock.now();
  const want = request.limit + 1;
  const walked = await Promise.all(
    sourcesOf(request).map((source) => walk(context, request, source, now, want)),
  );
  const sign = request.before === undefined ? -1 : 1;
  return walked
    .flat()
    .sort((a, b) => sign * compare(a.position, b.position))
    .slice(0, want);
}

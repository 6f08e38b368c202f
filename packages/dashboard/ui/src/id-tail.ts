/** Characters a tail shows at least: short enough to read, long enough to search by. */
export const MIN_TAIL = 6;

/**
 * The shortest end of each id that tells it from every other id given (at least `min`
 * characters). pg's ids are time-ordered, so ids made together share their start and differ only
 * at the end; a prefix would show the same text on every row.
 */
export function distinguishingTails(
  ids: readonly string[],
  min = MIN_TAIL,
): ReadonlyMap<string, string> {
  const unique = [...new Set(ids)];
  const longest = Math.max(0, ...unique.map((id) => id.length));
  let length = Math.min(min, longest);
  while (length < longest && new Set(unique.map((id) => id.slice(-length))).size < unique.length) {
    length += 1;
  }
  return new Map(unique.map((id) => [id, id.slice(-length)]));
}

/** How a tail is shown: marked as the end of something longer when it is. */
export const shownTail = (id: string, tail: string): string =>
  tail.length < id.length ? `…${tail}` : tail;

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const PART = /(\d+)(ms|s|m|h|d|w)/gy;

/**
 * `10s`, `5m`, `7d`, `1h30m`, `250ms` → milliseconds; undefined for anything else (a bare number
 * is refused: seconds or milliseconds would be a guess). The one reading of a duration an
 * operator types: `berth enqueue --delay`, `berth purge --older-than` and the dashboard's forms.
 */
export function parseDuration(text: string): number | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let match = PART.exec(text); match !== null; match = PART.exec(text)) {
    const [whole, amount = '', unit = ''] = match;
    total += Number(amount) * (UNIT_MS[unit] ?? Number.NaN);
    consumed += whole.length;
  }
  return consumed === text.length && Number.isSafeInteger(total) ? total : undefined;
}

/**
 * A schedule's list position as bytes whose order (how Redis compares zset members) is the
 * contract's list order: `name` in UTF-16 code-unit order, then `tenantId`, none first.
 *
 * position = E(name) 0x00 (nothing for no tenant | 't' E(tenant))
 *
 * E is CESU-8 (each UTF-16 code unit as its own 1–3 byte UTF-8 form) with 0x00 written 01 01 and
 * 0x01 written 01 02. Plain UTF-8 would put a character above U+FFFF (4 bytes from F0) after
 * U+E000–U+FFFF (EE, EF), while code units put it before (its surrogates are D800–DFFF); CESU-8
 * gives a surrogate 3 bytes from ED A0, below EE, so byte order is code-unit order, and it equals
 * UTF-8 for text without surrogates (nearly every name: no copy is made then). The escape keeps
 * 0x00 free as the name's end, so a name sorts before every longer one it begins.
 *
 * A position is only ever a zset member (scripts append NUL and the hash's part), never a key
 * name: its bytes need not be UTF-8, and the SCAN-based tools that read keys as text never see it.
 */

const SURROGATE = /[\uD800-\uDFFF]/;

/** CESU-8: UTF-8 of each code unit, a surrogate taken alone (lossless even for a lone one). */
function cesu8(text: string): Buffer {
  if (!SURROGATE.test(text)) return Buffer.from(text, 'utf8');
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes.push(unit);
    else if (unit < 0x800) bytes.push(0xc0 | (unit >> 6), 0x80 | (unit & 0x3f));
    else bytes.push(0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f));
  }
  return Buffer.from(bytes);
}

/**
 * `text` in CESU-8 with 00 → 01 01 and 01 → 01 02: order-preserving, and never 0x00. Only a
 * forged cursor holds U+0000 (core refuses it in names); U+0001 is a valid name character.
 */
function escaped(text: string): Buffer {
  const raw = cesu8(text);
  if (!raw.includes(0) && !raw.includes(1)) return raw;
  const bytes: number[] = [];
  for (const byte of raw) {
    if (byte <= 1) bytes.push(1, byte + 1);
    else bytes.push(byte);
  }
  return Buffer.from(bytes);
}

const END = Buffer.of(0);
const TENANT = Buffer.from('t');

/** The list position of `(tenantId, name)` as a zset member's leading bytes. */
export function schedulePosition(name: string, tenantId: string | undefined): Buffer {
  const head = [escaped(name), END];
  return Buffer.concat(tenantId === undefined ? head : [...head, TENANT, escaped(tenantId)]);
}

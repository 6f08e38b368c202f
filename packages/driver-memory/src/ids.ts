import { randomFillSync } from 'node:crypto';

/** Random bytes for this many ids are drawn at a time, as `randomUUID` buffers them. */
const POOL_IDS = 256;
const HEX = Buffer.from('0123456789abcdef', 'latin1');
const pool = Buffer.alloc(16 * POOL_IDS);
let offset = pool.length;
const text = Buffer.alloc(36);

/**
 * A random (version 4) uuid, lower-case, as one flat string. `randomUUID` answers a rope of a
 * dozen joined pieces, which a row would keep for good (~600 bytes more per id) and every lookup
 * by id would compare piece by piece; this writes the 36 characters and reads them out once.
 */
export function newId(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  let at = 0;
  for (let index = 0; index < 16; index += 1) {
    let byte = pool[offset + index] as number;
    // The version nibble (4) and the RFC 9562 variant bits (10).
    if (index === 6) byte = (byte & 0x0f) | 0x40;
    else if (index === 8) byte = (byte & 0x3f) | 0x80;
    if (index === 4 || index === 6 || index === 8 || index === 10) text[at++] = 0x2d;
    text[at++] = HEX[byte >> 4] as number;
    text[at++] = HEX[byte & 0x0f] as number;
  }
  offset += 16;
  return text.toString('latin1', 0, 36);
}

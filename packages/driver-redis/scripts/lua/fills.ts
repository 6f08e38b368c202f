import {
  MAX_ATTEMPT_MESSAGE_BYTES,
  MAX_ATTEMPT_RECORDS,
  MAX_ATTEMPT_STACK_BYTES,
} from '@berth/core/driver';
import { CLAIM_REPLY_FIELDS, CLAIM_REPLY_OPTIONAL, PROMOTE_SLACK } from '../../src/lua/claim.js';
import { ENQUEUE_FIELDS } from '../../src/lua/enqueue.js';
import { WAKE_BATCH } from '../../src/lua/events.js';
import { LIFECYCLE_APPROX_FROM } from '../../src/lua/lifecycle.js';
import { EVENTS_SINCE_SCAN, SETTLE_WIDTH } from '../../src/lua/settle.js';

/**
 * What the generator writes for each `{{NAME}}` of a `.lua` file: values TypeScript reads too
 * (an ARGV layout, a reply layout, a limit), so the two sides cannot disagree. A fill no source
 * uses, or a placeholder with no fill, fails the generator.
 */
export const LUA_FILLS: Readonly<Record<string, string>> = {
  /** include/attempts.lua: the cut of an attempt's error message and stack, and the records kept. */
  MAX_ATTEMPT_MESSAGE_BYTES: String(MAX_ATTEMPT_MESSAGE_BYTES),
  MAX_ATTEMPT_STACK_BYTES: String(MAX_ATTEMPT_STACK_BYTES),
  MAX_ATTEMPT_RECORDS: String(MAX_ATTEMPT_RECORDS),
  /** claim.lua: lapsed leases moved per lane beyond the limit. */
  PROMOTE_SLACK: String(PROMOTE_SLACK),
  /** claim.lua: the optional fields of a claimed row's answer, as a Lua list of names. */
  CLAIM_REPLY_OPTIONAL: CLAIM_REPLY_OPTIONAL.map((field) => `'${field}'`).join(', '),
  /** claim.lua: the fixed fields of a claimed row's answer, NUL-joined (decode.ts splits them). */
  CLAIM_REPLY_ROW: CLAIM_REPLY_FIELDS.map((field) => `d.${field}`).join(" .. '\\0' .. "),
  /** enqueue.lua: ARGV slots per request, and a `local F_<field> = <offset>` line per field. */
  ENQUEUE_WIDTH: String(ENQUEUE_FIELDS.length),
  ENQUEUE_OFFSETS: ENQUEUE_FIELDS.map((field, index) => `local F_${field} = ${index + 1}`).join(
    '\n',
  ),
  /** publish.lua, wake-more.lua: waiters one script wakes at most. */
  WAKE_BATCH: String(WAKE_BATCH),
  /** settle.lua: the newest events a filtered suspend looks at, and ARGV slots per item. */
  EVENTS_SINCE_SCAN: String(EVENTS_SINCE_SCAN),
  SETTLE_WIDTH: String(SETTLE_WIDTH),
  /** include/lifecycle.lua: the retention from which each write trims whole nodes only. */
  LIFECYCLE_APPROX_FROM: String(LIFECYCLE_APPROX_FROM),
};

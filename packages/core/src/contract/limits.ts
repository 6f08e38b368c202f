/** The most rows one `list` page answers. */
export const MAX_JOB_PAGE = 500;
/** The page size when `list` is given no limit. */
export const DEFAULT_JOB_PAGE = 50;
/** `lastError.stack` is cut to this many characters before it is stored. */
export const MAX_ERROR_STACK_LENGTH = 4_000;
/** `lastError.message` is cut to this many characters before it is stored. */
export const MAX_ERROR_MESSAGE_LENGTH = 2_000;
/** The payload size limit (bytes of its JSON) a driver applies unless configured otherwise. */
export const DEFAULT_MAX_PAYLOAD_BYTES = 1_048_576;
/** Attempts a job gets when the request names none. */
export const DEFAULT_MAX_ATTEMPTS = 3;
/** The queue a job lands in when the request names none. */
export const DEFAULT_QUEUE = 'default';
/** How long a published event stays findable when `publish` names no ttl: 7 days. */
export const DEFAULT_EVENT_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The longest name, queue, key or tenant id the contract accepts. */
export const MAX_NAME_LENGTH = 200;
/** The most requests one `enqueueMany` call takes. */
export const MAX_ENQUEUE_BATCH = 1_000;
/** The most rows one `claim` call takes. */
export const MAX_CLAIM_BATCH = 1_000;
/** The deepest nesting of arrays and objects a payload, result or step output may hold. */
export const MAX_PAYLOAD_DEPTH = 100;
/** Rows one `purge` (and events one `events.purgeExpired`) removes when the call names no limit. */
export const DEFAULT_PURGE_LIMIT = 1_000;
/** The most rows one `purge` (or events one `events.purgeExpired`) call may remove. */
export const MAX_PURGE_LIMIT = 10_000;
/**
 * The most bytes of JSON one `progress` value may hold (or the driver's payload limit, when that
 * is lower). Progress is rewritten often and carried on every read of the row, so it stays small.
 */
export const MAX_PROGRESS_BYTES = 16_384;

/**
 * The timeout of a `beforeAll` hook that starts a private cluster or replica set for a test
 * file. Starting one is the file's setup, not a case's behaviour, so it runs in a hook rather
 * than inside the first case (where a loaded machine made it count against that case's
 * timeout). It is longer than every starter's own deadlines added up (a Redis replica set with
 * sentinels: up to 180 s), so a start that does fail says which part did not come up instead of
 * the hook timing out.
 */
export const PRIVATE_START_HOOK_MS = 240_000;

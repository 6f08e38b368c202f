/**
 * The longest one try of a request a cluster may leave unanswered waits before it is made again:
 * a bucket's create or stream info while a new stream is placed, the watch's consumer create
 * while the meta leader is replaced (a rolling restart). Well short of `timeoutMs` (10 s by
 * default), so one lost request leaves time to ask again within a call's allowance.
 */
export const TRY_MS = 2_000;

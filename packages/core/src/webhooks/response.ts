/** What one delivery attempt's answer means for the delivery. */
export type Verdict = 'delivered' | 'retry' | 'give-up';

/**
 * 2xx delivered; 408 (timeout), 429 (too many requests) and 5xx retry; anything else gives up at
 * once: another 4xx (or a redirect) says the request itself is wrong, and sending it again
 * changes nothing.
 */
export function verdictOf(status: number): Verdict {
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  return 'give-up';
}

/**
 * A `Retry-After` header as a wait in ms: delay-seconds (`120`) or an HTTP date; undefined when
 * absent or unreadable (the job's backoff applies). A date in the past waits 0.
 */
export function retryAfterMs(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1_000;
  const at = Date.parse(text);
  if (Number.isNaN(at) || !/[a-z]/i.test(text)) return undefined;
  return Math.max(0, at - nowMs);
}

/** Reads at most `maxBytes` of a response body, then lets the rest go: enough to tell why. */
export async function bodyExcerpt(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    while (bytes < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.byteLength;
    }
  } catch {
    // A body cut off midway still tells what came before the cut.
  } finally {
    reader.cancel().catch(() => {});
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, maxBytes));
  return bytes > maxBytes ? `${text}…` : text;
}

import type { IncomingMessage } from 'node:http';

/** Actions carry a few ids and names; anything bigger is not the dashboard's page talking. */
export const MAX_BODY_BYTES = 256 * 1024;

export class BodyError extends Error {}

/**
 * The request's JSON body. A framework that already parsed it (Express's `express.json()`)
 * left it on `request.body`, and the stream is spent, so that is used instead.
 */
export async function readJson(request: IncomingMessage): Promise<unknown> {
  const parsed = (request as { body?: unknown }).body;
  if (parsed !== undefined && typeof parsed === 'object' && !Buffer.isBuffer(parsed)) return parsed;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyError(`the body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  if (size === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new BodyError('the body is not JSON');
  }
}

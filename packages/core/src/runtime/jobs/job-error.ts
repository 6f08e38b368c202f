import {
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_ERROR_STACK_LENGTH,
  MAX_NAME_LENGTH,
} from '../../contract/limits.js';
import type { JobError } from '../../contract/records.js';

/** What a failed attempt stores as `lastError`: the error's code (BerthError's or the app's), message and stack. */
export function toJobError(error: unknown): JobError {
  if (!(error instanceof Error))
    return { message: String(error).slice(0, MAX_ERROR_MESSAGE_LENGTH) };
  const code = (error as { code?: unknown }).code;
  return {
    ...(typeof code === 'string' && code.length > 0 && code.length <= MAX_NAME_LENGTH
      ? { code }
      : {}),
    message: error.message.slice(0, MAX_ERROR_MESSAGE_LENGTH),
    ...(error.stack === undefined ? {} : { stack: error.stack.slice(0, MAX_ERROR_STACK_LENGTH) }),
  };
}

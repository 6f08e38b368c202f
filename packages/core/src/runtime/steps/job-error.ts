import {
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_ERROR_STACK_LENGTH,
  MAX_NAME_LENGTH,
} from '../../contract/limits.js';
import type { JobError } from '../../contract/records.js';

/** What a thrown value leaves in a failed step: its code (BerthError's or the app's), message, stack. */
export function stepError(error: unknown): JobError {
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

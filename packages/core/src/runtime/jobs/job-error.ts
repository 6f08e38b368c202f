import {
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_ERROR_STACK_LENGTH,
  MAX_NAME_LENGTH,
} from '../../contract/limits.js';
import type { JobError } from '../../contract/records.js';
import { describeReceived } from '../../errors/received.js';

/** Text for whatever a handler threw: `String()` of it, or a description when that throws. */
function textOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    return describeReceived(value);
  }
}

/** A property of the thrown error; one whose getter throws reads as absent. */
function own(error: object, key: string): unknown {
  try {
    return (error as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/**
 * What a failed attempt stores as `lastError`: the error's code (BerthError's or the app's),
 * message and stack. Whatever was thrown (a null-prototype object, an Error whose message is no
 * string) becomes a string message: this never throws.
 */
export function toJobError(error: unknown): JobError {
  if (!(error instanceof Error))
    return { message: textOf(error).slice(0, MAX_ERROR_MESSAGE_LENGTH) };
  const code = own(error, 'code');
  const message = own(error, 'message');
  const stack = own(error, 'stack');
  return {
    ...(typeof code === 'string' && code.length > 0 && code.length <= MAX_NAME_LENGTH
      ? { code }
      : {}),
    message: (typeof message === 'string' ? message : textOf(message ?? '')).slice(
      0,
      MAX_ERROR_MESSAGE_LENGTH,
    ),
    ...(typeof stack === 'string' ? { stack: stack.slice(0, MAX_ERROR_STACK_LENGTH) } : {}),
  };
}

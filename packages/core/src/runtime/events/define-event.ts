import type { StandardSchemaV1 } from '@standard-schema/spec';
import { MAX_NAME_LENGTH } from '../../contract/limits.js';
import type { Json } from '../../contract/records.js';
import { configInvalid } from '../../errors/refusals.js';
import { configObject, configuring } from '../../internal/config-screen.js';
import type { RequireJson } from '../../json-shape.js';

/** What `defineEvent` takes. */
export interface EventOptions<TInput, TPayload> {
  /** The name `publish` stores it under and `step.waitForEvent` waits for. */
  readonly name: string;
  /** Any Standard Schema validator (zod, valibot, arktype): checked at publish. */
  readonly schema?: StandardSchemaV1<TInput, TPayload>;
}

/**
 * An event an app declares once: `client.publish(event, payload)` takes `TInput` (checked by the
 * schema, JOB_INVALID otherwise) and stores the schema's output, which `step.waitForEvent({ event
 * })` answers as `TPayload`. Without a schema both are `Json` (or the type argument given).
 */
export interface EventDefinition<TInput = Json, TPayload = TInput>
  extends EventOptions<TInput, TPayload> {
  /** Type only, never set: carries the payload type to waiters. */
  readonly '~payload'?: TPayload;
}

/** Any event definition, whatever its payload. */
export type AnyEventDefinition = EventDefinition<unknown, unknown>;

/** What `publish` takes as the payload of `event`. */
export type EventInput<E> =
  E extends EventDefinition<infer TInput, infer _TPayload> ? TInput : never;

/** What a waiter receives as the payload of `event`. */
export type EventPayload<E> =
  E extends EventDefinition<infer _TInput, infer TPayload> ? TPayload : never;

/** Declares an event once, so its publishers and its waiters agree on its payload. */
export function defineEvent<TInput = Json, TPayload = TInput>(
  options: EventOptions<TInput, TPayload> & RequireJson<TPayload, 'payload'>,
): EventDefinition<TInput, TPayload> {
  const example = "const options = { name: 'order.paid' }; defineEvent(options)";
  return configuring('options', example, () => {
    const { name, schema } = configObject('options', options, example);
    if (typeof name !== 'string' || name.length === 0 || name.length > MAX_NAME_LENGTH) {
      throw configInvalid({
        option: 'event name',
        reason: `must be a string of 1 to ${MAX_NAME_LENGTH} characters`,
        example: "defineEvent({ name: 'order.paid' })",
      });
    }
    const validator = schema as { '~standard'?: { validate?: unknown } } | undefined;
    if (validator !== undefined && typeof validator?.['~standard']?.validate !== 'function') {
      throw configInvalid({
        option: `event ${name}: schema`,
        reason: 'must be a Standard Schema validator (zod, valibot, arktype)',
        example: "defineEvent({ name: 'order.paid', schema: z.object({ orderId: z.string() }) })",
      });
    }
    return Object.freeze(
      schema === undefined
        ? { name }
        : { name, schema: schema as StandardSchemaV1<TInput, TPayload> },
    );
  });
}

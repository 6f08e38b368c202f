import type { Json } from './contract/records.js';

type JsonLeaf = string | number | boolean | null | undefined;

/** One property of a JSON object: JSON itself, or `never` (a function, bigint, symbol, Date...). */
type JsonProperty<V> = [V] extends [Json]
  ? V
  : V extends JsonLeaf
    ? V
    : V extends ((...args: never[]) => unknown) | bigint | symbol
      ? never
      : V extends object
        ? JsonShaped<V>
        : never;

/**
 * `T` with every non-JSON property turned to `never`, so `T extends JsonShaped<T>` holds exactly
 * when `T` is JSON. Unlike `Json`, it takes interfaces (which have no index signature) as well as
 * type aliases, and refuses what JSON cannot carry back: a `Date` (its methods), a `Map`, a
 * function property, a bigint. `undefined` properties pass: JSON drops them.
 */
export type JsonShaped<T> = { [K in keyof T]: JsonProperty<T[K]> };

/** What a JSON answer may be at its top: a JSON leaf or an object (checked by `JsonShaped`). */
// biome-ignore lint/suspicious/noConfusingVoidType: a function that returns nothing infers void.
export type JsonRoot = JsonLeaf | void | object;

/** `true` when `T` is JSON (interfaces included; `never`, a run that only throws, too), else `false`. */
export type IsJson<T> = [T] extends [never]
  ? true
  : [T] extends [JsonShaped<T> & JsonRoot]
    ? [T] extends [bigint | symbol]
      ? false
      : true
    : false;

/**
 * An options object's guard: nothing when `T` is JSON, else a required property whose name says
 * what is wrong, so the compiler's error points at it (`"~payload must be JSON"` is missing).
 */
export type RequireJson<T, What extends string> =
  IsJson<T> extends true ? unknown : { readonly [K in `~${What} must be JSON`]: never };

/**
 * `T` with its fields writable: for building a record field by field (only the fields a row
 * holds, so an absent one stays absent) before handing it out as the readonly `T`.
 */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

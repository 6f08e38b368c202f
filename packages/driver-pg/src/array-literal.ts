/**
 * Array parameters as PostgreSQL array literals, for the hot path's batches. `pg` quotes and
 * escapes every element of a JS array; uuids (screened by core, or made by the driver), finite
 * numbers and booleans never need it, so a join sends the same value for a fraction of the work.
 * Elements that may need quoting (free text, JSON) and arrays with nulls stay JS arrays.
 */

/** A `uuid[]` parameter. Only for well-formed uuids: a comma would split an element. */
export const uuidArray = (ids: readonly string[]): string => `{${ids.join(',')}}`;

/** A `bigint[]` or `int[]` parameter of finite integers. */
export const intArray = (values: readonly number[]): string => `{${values.join(',')}}`;

/** A `bool[]` parameter. */
export const boolArray = (values: readonly boolean[]): string =>
  `{${values.map((value) => (value ? 't' : 'f')).join(',')}}`;

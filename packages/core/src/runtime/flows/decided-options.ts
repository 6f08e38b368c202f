import { jobInvalid } from '../../errors/refusals.js';
import { screenObject } from '../../screen/values.js';
import type { EnqueueOptions } from '../client/client-types.js';

/**
 * Enqueue options given to a flow (`options` of an invoke, of an enqueueFlow's parent or child),
 * as a plain copy; each of `decided` (what the flow gives the job itself: its id, tenant, key…)
 * is JOB_INVALID naming `<field>.<name>`, saying `why`.
 */
export function screenDecidedOptions(
  field: string,
  given: unknown,
  decided: readonly string[],
  why: string,
): EnqueueOptions {
  if (given === undefined) return {};
  const options = { ...screenObject(field, given) };
  for (const name of decided) {
    if (options[name] !== undefined) throw jobInvalid(`${field}.${name}`, why);
  }
  return options as EnqueueOptions;
}

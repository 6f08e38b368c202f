/** The option's own name: the last word of `job x: retry.backoff.jitter`, `schedules[0].cron`. */
const leafOf = (option: string): string => option.match(/[A-Za-z]+/g)?.at(-1) ?? option;

/**
 * Why a CONFIG_INVALID `fix` is not one a user can act on, or undefined when it is: it must not
 * be the option name again ("correct concurrency"), must say what the option takes, and must
 * show a valid call with the option set to a value after `; e.g. `.
 */
export function configFixProblem(option: string, fix: string): string | undefined {
  if (fix === option || fix === `correct ${option}`) return `the fix only restates ${option}`;
  if (fix.replace(option, '').trim().length < 30) return `the fix says too little: ${fix}`;
  const example = fix.split('; e.g. ')[1];
  if (example === undefined) return `the fix shows no example: ${fix}`;
  const leaf = leafOf(option);
  if (!new RegExp(`\\b${leaf}\\s*[:=]\\s*[^\\s,})]`).test(example)) {
    return `the example does not set ${leaf} to a value: ${example}`;
  }
  return undefined;
}

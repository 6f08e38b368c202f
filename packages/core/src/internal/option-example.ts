/**
 * A valid call showing one option with a value, for a CONFIG_INVALID fix:
 * `optionExample('createWorker', 'retry.backoff.jitter', '0.2')` →
 * `createWorker({ ..., retry: { backoff: { jitter: 0.2 } } })`.
 */
export function optionExample(call: string, path: string, value: string): string {
  const keys = path.split('.');
  let body = `${keys.at(-1)}: ${value}`;
  for (const key of keys.slice(0, -1).reverse()) body = `${key}: { ${body} }`;
  return `${call}({ ..., ${body} })`;
}

/** A variable the crash scenario's worker processes need: unset or empty fails loudly. */
export function crashEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value.length === 0) throw new Error(`crash worker: ${name} is unset`);
  return value;
}

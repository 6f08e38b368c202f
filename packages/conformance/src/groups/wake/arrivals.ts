import { eventually, pause } from '../fixtures/index.js';

/** Wake delivery may be async: how long a case waits to be sure no (further) call comes. */
export const QUIET_MS = 150;
export const TIMEOUT_MS = 8_000;

/**
 * Waits until `heard` holds `count` entries, then for quiet, and answers what arrived (sorted),
 * leaving `heard` empty for what comes next.
 */
export async function arrived(heard: string[], count: number): Promise<string[]> {
  await eventually(() => heard.length >= count);
  await pause(QUIET_MS);
  return heard.splice(0).sort();
}

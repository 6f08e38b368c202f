import type { Driver, JobRecord, JobState, ManualClock } from '@berth/core';

/** How far one nudge moves the kit clock: the harness worker's poll interval. */
export const NUDGE_MS = 10;
/** Most nudges one wait takes (20 s of kit time, far below any scenario's own durations). */
const MAX_NUDGES = 2_000;

/** A real-time yield: lets I/O and handlers run between moves of the clock. */
export const realPause = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

/**
 * Waits until `done()` holds. Each round lets real time pass (a driver's wake may be delivered
 * asynchronously) and then nudges the kit clock by NUDGE_MS, so a worker that only polls still
 * runs. Scenarios compare states, counts and outputs, never instants, so the nudges a driver
 * needs do not change its transcript.
 */
export async function driveUntil(
  clock: ManualClock,
  what: string,
  done: () => Promise<boolean> | boolean,
): Promise<void> {
  for (let round = 0; round < MAX_NUDGES; round += 1) {
    if (await done()) return;
    await realPause();
    if (await done()) return;
    await clock.advance(NUDGE_MS);
  }
  throw new Error(`runtime scenario: gave up waiting until ${what}`);
}

/** Waits until job `id` reads `state`, and answers its record. */
export async function driveToState(
  driver: Driver,
  clock: ManualClock,
  id: string,
  state: JobState,
): Promise<JobRecord> {
  let record: JobRecord | undefined;
  await driveUntil(clock, `job ${id} is ${state}`, async () => {
    record = await driver.get(id);
    return record?.state === state;
  });
  if (record === undefined) throw new Error(`job ${id} vanished`);
  return record;
}

/**
 * What a transcript keeps of a job record: the outcome, not the timing (backoff jitter and the
 * clock nudges differ from run to run and driver to driver).
 */
export function outcomeOf(record: JobRecord | undefined) {
  if (record === undefined) return undefined;
  return {
    name: record.name,
    state: record.state,
    attempts: record.attempts,
    ...(record.result === undefined ? {} : { result: record.result }),
    ...(record.lastError === undefined
      ? {}
      : {
          lastError: {
            ...(record.lastError.code === undefined ? {} : { code: record.lastError.code }),
            message: record.lastError.message,
          },
        }),
    ...(record.waitFor === undefined ? {} : { waitFor: record.waitFor }),
  };
}

import type { Driver, JobRecord, JobState, ManualClock } from '../../src/index.js';

/** Lets pending promise chains and microtasks run (the memory driver answers on microtasks). */
export const settleTicks = async (rounds = 5): Promise<void> => {
  for (let round = 0; round < rounds; round += 1) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
};

/**
 * Moves the clock in steps of `stepMs` (letting work run between steps) until `done()` holds;
 * fails the test past `maxMs` of clock time.
 */
export async function driveUntil(
  clock: ManualClock,
  done: () => boolean | Promise<boolean>,
  options: { stepMs?: number; maxMs?: number; what?: string } = {},
): Promise<void> {
  const stepMs = options.stepMs ?? 5;
  const until = clock.now() + (options.maxMs ?? 120_000);
  for (;;) {
    await settleTicks();
    if (await done()) return;
    if (clock.now() >= until) {
      throw new Error(
        `gave up waiting${options.what === undefined ? '' : ` until ${options.what}`}`,
      );
    }
    await clock.advance(stepMs);
  }
}

/** Drives until job `id` reads `state`; answers the record. */
export async function driveToState(
  driver: Driver,
  clock: ManualClock,
  id: string,
  state: JobState,
  options: { stepMs?: number; maxMs?: number } = {},
): Promise<JobRecord> {
  let record: JobRecord | undefined;
  await driveUntil(
    clock,
    async () => {
      record = await driver.get(id);
      return record?.state === state;
    },
    { ...options, what: `job ${id} is ${state}` },
  );
  if (record === undefined) throw new Error(`job ${id} vanished`);
  return record;
}

/** A promise with its resolve function outside, for handlers a test releases by hand. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open: (value: T) => void = () => {};
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A quiet logger that keeps every line, for asserting what was logged. */
export function recordingLogger() {
  const lines: { level: string; message: string; fields?: Readonly<Record<string, unknown>> }[] =
    [];
  const at =
    (level: string) =>
    (message: string, fields?: Readonly<Record<string, unknown>>): void => {
      lines.push(fields === undefined ? { level, message } : { level, message, fields });
    };
  return {
    lines,
    logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
  };
}

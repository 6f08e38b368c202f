import { runCalls, runFuzz } from '../../fuzz/run.js';
import { SWEEP_CALLS } from '../../fuzz/sweep.js';
import type { KitGroup, KitOptions } from '../../kit.js';

/** Enough calls to reach every entry point many times, few enough to take seconds. */
const DEFAULT_RUNS = 300;

/**
 * Hostile arguments at every public entry point, drawn by fast-check from a seed (a fresh one
 * per run unless `fuzzSeed` is set; a failure names it), on the driver and the reference alike.
 */
export function fuzzGroup(options: KitOptions): KitGroup {
  return {
    name: 'fuzz',
    cases: [
      {
        title:
          'hostile arguments at every entry point answer only registered codes that serialise, change nothing when refused, and match the reference driver call for call',
        timeoutMs: 300_000,
        costMs: 3_000,
        run: ({ factory }) =>
          runFuzz(factory, options.reference ?? factory, {
            runs: options.fuzzRuns ?? DEFAULT_RUNS,
            seed: options.fuzzSeed ?? Math.floor(Math.random() * 2 ** 31),
          }),
      },
      {
        title:
          'null, undefined, a number, an empty or null-prototype object, a Proxy or a throwing getter in any argument of the client’s calls, defineJob, declareJob, implementJob, defineEvent, createClient, createWorker, createScheduler and createRetention answer a registered code, change nothing, and match the reference driver',
        timeoutMs: 300_000,
        costMs: 2_000,
        run: ({ factory }) =>
          runCalls(
            factory,
            options.reference ?? factory,
            SWEEP_CALLS,
            (index, call) => `app sweep call ${index} (${JSON.stringify(call)})`,
          ),
      },
    ],
  };
}

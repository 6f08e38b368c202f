import { scheduleSequenceArbitrary } from '../../differential/arbitrary.js';
import { runDifferential } from '../../differential/run.js';
import type { KitGroup, KitOptions } from '../../kit.js';

/** The CI floor: fewer runs are for local work only. */
const DEFAULT_RUNS = 200;

/**
 * Random operation sequences on the driver under test and on the reference (memory) side by
 * side: every answer must be equal, so drivers agree beyond the cases anyone thought to write.
 */
export function differentialGroup(options: KitOptions): KitGroup {
  return {
    name: 'differential',
    cases: [
      {
        title:
          'random operation sequences answer exactly as the reference driver does, answer for answer',
        timeoutMs: 600_000,
        costMs: 30_000,
        run: ({ factory }) =>
          runDifferential(factory, options.reference ?? factory, {
            runs: options.differentialRuns ?? DEFAULT_RUNS,
            ...(options.differentialSeed === undefined ? {} : { seed: options.differentialSeed }),
          }),
      },
      {
        title:
          'random stored-schedule sequences (puts at stale and current revisions, removes, lists, due) answer exactly as the reference driver does',
        timeoutMs: 600_000,
        costMs: 5_000,
        run: ({ factory }) =>
          runDifferential(factory, options.reference ?? factory, {
            runs: options.differentialRuns ?? DEFAULT_RUNS,
            sequences: scheduleSequenceArbitrary,
            ...(options.differentialSeed === undefined ? {} : { seed: options.differentialSeed }),
          }),
      },
    ],
  };
}

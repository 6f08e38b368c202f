import { expect } from 'vitest';
import { recordTranscript } from '../../golden/transcript.js';
import type { KitGroup } from '../../kit.js';
import { runtimeExpected } from '../../runtime/expected.js';
import { runtimeScenarios } from '../../runtime/index.js';
import { quietContext } from '../../runtime/quiet-clock.js';

/**
 * The runtime (worker, steps, scheduler) on the driver under test. Each scenario's transcript —
 * outcomes, counts and outputs, never instants, since a driver's wake timing may differ — must
 * equal the one written in the kit, so every driver runs the runtime alike.
 */
export const runtimeGroup: KitGroup = {
  name: 'runtime',
  cases: runtimeScenarios.map((scenario) => ({
    title: `runtime ${scenario.name}: ${scenario.asserts}`,
    timeoutMs: 30_000,
    run: async (context) => {
      const actual = await recordTranscript(scenario, quietContext(context));
      expect(actual).toEqual(runtimeExpected[scenario.name]);
    },
  })),
};

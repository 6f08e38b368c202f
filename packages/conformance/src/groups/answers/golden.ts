import { expect } from 'vitest';
import { expectedTranscript, goldenScenarios } from '../../golden/index.js';
import { recordTranscript } from '../../golden/transcript.js';
import type { KitGroup } from '../../kit.js';

/**
 * Scripted scenarios whose whole transcript (ids as labels, instants as offsets, errors as code
 * and meta) must equal the one written in the kit: every driver gives the SAME answers.
 */
export const goldenGroup: KitGroup = {
  name: 'golden',
  cases: goldenScenarios.map((scenario) => ({
    title: `golden ${scenario.name}: ${scenario.asserts}`,
    run: async (context) => {
      const actual = await recordTranscript(scenario, context);
      expect(actual).toEqual(expectedTranscript(scenario.name));
    },
  })),
};

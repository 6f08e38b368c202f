import { expectedTranscript, GOLDEN_SCENARIOS, runGoldenScenario } from '@berth/conformance';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryFactory } from './memory-factory.js';
import { closePgFactory, pgFactory } from './pg-factory.js';

afterAll(closePgFactory);

const scenarios = GOLDEN_SCENARIOS.filter(
  (name) => name.startsWith('requeue-') || name.startsWith('enqueue-retry-'),
);

describe('memory and pg side by side', () => {
  it('covers every requeue and enqueue-retry golden scenario', () => {
    expect(scenarios).toEqual(
      expect.arrayContaining([
        'requeue-not-found',
        'requeue-wrong-state',
        'requeue-key-taken',
        'requeue-race-lost',
        'requeue-from-step',
        'enqueue-retry-one-miss',
        'enqueue-retry-two-misses',
      ]),
    );
  });

  it('the memory and pg drivers give the same requeue and enqueue-retry answers', async () => {
    for (const name of scenarios) {
      const onMemory = await runGoldenScenario(memoryFactory, name);
      const onPg = await runGoldenScenario(pgFactory, name);
      expect(onPg, `${name}: pg against memory`).toEqual(onMemory);
      expect(onPg, `${name}: pg against the golden transcript`).toEqual(expectedTranscript(name));
      expect(onMemory, `${name}: memory against the golden transcript`).toEqual(
        expectedTranscript(name),
      );
    }
  });
});

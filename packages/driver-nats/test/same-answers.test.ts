import {
  type DriverFactory,
  expectedTranscript,
  GOLDEN_SCENARIOS,
  runGoldenScenario,
} from '@berth/conformance';
import { describe, expect, it } from 'vitest';
import { natsFactory } from './nats-factory.js';
import { memoryFactory, pgFactory, redisFactory } from './other-drivers.js';

const scenarios = GOLDEN_SCENARIOS.filter(
  (name) => name.startsWith('requeue-') || name.startsWith('enqueue-retry-'),
);

const drivers: readonly (readonly [string, DriverFactory])[] = [
  ['memory', memoryFactory],
  ['pg', pgFactory],
  ['redis', redisFactory],
  ['nats', natsFactory],
];

describe('memory, pg, redis and nats side by side', () => {
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

  for (const name of scenarios) {
    it(`${name}: the four drivers give the same transcript, the golden one`, async () => {
      const transcripts = await Promise.all(
        drivers.map(
          async ([driver, factory]) => [driver, await runGoldenScenario(factory, name)] as const,
        ),
      );
      const [, onMemory] = transcripts[0] ?? [];
      for (const [driver, transcript] of transcripts) {
        expect(transcript, `${name}: ${driver} against memory`).toEqual(onMemory);
        expect(transcript, `${name}: ${driver} against the golden transcript`).toEqual(
          expectedTranscript(name),
        );
      }
    });
  }
});

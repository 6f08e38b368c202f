import { isDeepStrictEqual } from 'node:util';
import { createManualClock, type DriverHooks } from '@berth/core';
import fc from 'fast-check';
import {
  type DriverFactory,
  type DriverUnderTest,
  KIT_LIFECYCLE_RETENTION,
  KIT_T0,
} from '../kit.js';
import type { Normalized } from '../normalize.js';
import { applyOp } from './apply.js';
import { sequenceArbitrary } from './arbitrary.js';
import { lifecycleByJob } from './lifecycle.js';
import type { Op } from './ops.js';
import { openWorld, type World } from './world.js';

export interface DifferentialOptions {
  /** Sequences to run; the CI floor is 200. */
  readonly runs: number;
  /** How sequences are drawn; default the job sequences (`sequenceArbitrary`). */
  readonly sequences?: fc.Arbitrary<readonly Op[]>;
  /** Replays one run of fast-check (its failure report names the seed). */
  readonly seed?: number;
}

/** Differential runs set no seams: the races are the golden scenarios' business. */
const NO_HOOKS: DriverHooks = {};

const show = (value: unknown) => JSON.stringify(value);

/** The message a mismatch fails with: where, what was asked, what each side said. */
function mismatch(
  ops: readonly Op[],
  at: number,
  tested: Normalized,
  reference: Normalized,
  names: readonly [string, string],
): Error {
  const steps = ops
    .slice(0, at + 1)
    .map((op, index) => `  ${index}. ${show(op)}`)
    .join('\n');
  return new Error(
    [
      `op ${at} answered differently on ${names[0]} and on the reference ${names[1]}`,
      `  op:        ${show(ops[at])}`,
      `  ${names[0]}: ${show(tested)}`,
      `  ${names[1]}: ${show(reference)}`,
      'sequence:',
      steps,
    ].join('\n'),
  );
}

async function open(factory: DriverFactory): Promise<{ world: World; made: DriverUnderTest }> {
  const clock = createManualClock(KIT_T0);
  const made = await factory({
    clock,
    hooks: NO_HOOKS,
    lifecycleRetention: KIT_LIFECYCLE_RETENTION,
  });
  return { world: openWorld(made.driver, clock, KIT_T0), made };
}

/** Plays one sequence on both drivers in lockstep, failing at the first answer that differs. */
async function playBoth(
  factory: DriverFactory,
  reference: DriverFactory,
  ops: readonly Op[],
): Promise<void> {
  const tested = await open(factory);
  try {
    const against = await open(reference);
    try {
      for (const [at, op] of ops.entries()) {
        const mine = await applyOp(tested.world, op);
        const theirs = await applyOp(against.world, op);
        if (!isDeepStrictEqual(mine, theirs)) {
          throw mismatch(ops, at, mine, theirs, [
            tested.world.driver.name,
            against.world.driver.name,
          ]);
        }
      }
      const mine = await lifecycleByJob(tested.world);
      const theirs = await lifecycleByJob(against.world);
      if (!isDeepStrictEqual(mine, theirs)) {
        throw new Error(
          [
            `the lifecycle streams differ after the sequence (each job's events, in order)`,
            `  ${tested.world.driver.name}: ${show(mine)}`,
            `  ${against.world.driver.name}: ${show(theirs)}`,
            'sequence:',
            ...ops.map((op, index) => `  ${index}. ${show(op)}`),
          ].join('\n'),
        );
      }
    } finally {
      await against.made.dispose();
    }
  } finally {
    await tested.made.dispose();
  }
}

/**
 * Model-free differential testing: random operation sequences run on the driver under test and
 * on the reference side by side, each on its own kit clock moved in lockstep; every answer,
 * normalized, must be equal. A mismatch is shrunk by fast-check to a short sequence, and the
 * failure shows the ops and both answers.
 */
export async function runDifferential(
  factory: DriverFactory,
  reference: DriverFactory,
  options: DifferentialOptions,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(options.sequences ?? sequenceArbitrary, (ops) =>
      playBoth(factory, reference, ops),
    ),
    {
      numRuns: options.runs,
      // The mismatch (ops and both answers) belongs in the message runKit and vitest show.
      includeErrorInReport: true,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    },
  );
}

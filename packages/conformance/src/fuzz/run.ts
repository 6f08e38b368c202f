import { createManualClock, type Driver } from '@berth/core';
import fc from 'fast-check';
import { expect } from 'vitest';
import {
  makeWorld,
  type Outcome,
  outcomeOf,
  type ScreensWorld,
  snapshot,
} from '../groups/screens-world.js';
import { type DriverFactory, KIT_T0 } from '../kit.js';
import { ENTRIES, ENTRY_NAMES } from './entries.js';
import { templateOf, withField } from './templates.js';
import { BREAKABLE_FIELDS, build, type ValueSpec, valueSpec } from './values.js';

export interface FuzzOptions {
  /** Calls per driver. */
  readonly runs: number;
  /** The seed the call sequence is drawn from; a failure names it. */
  readonly seed: number;
}

/** One call: hostile arguments outright, or a valid call with a few fields broken. */
type Call =
  | { readonly entry: string; readonly args: readonly ValueSpec[] }
  | { readonly entry: string; readonly breaks: readonly Break[] };

/** Argument `arg` (or its `field`, when given) replaced by a hostile value. */
type Break = readonly [arg: number, field: string | null, value: ValueSpec];

const FIELD = fc.oneof(
  fc.constant(null),
  fc.constantFrom(...BREAKABLE_FIELDS),
  fc.constantFrom('0', '1', '2', 'fence', 'error'),
);

const callSpec: fc.Arbitrary<Call> = fc.oneof(
  fc.record({
    entry: fc.constantFrom(...ENTRY_NAMES),
    args: fc.array(valueSpec, { minLength: 3, maxLength: 3 }),
  }),
  fc.record({
    entry: fc.constantFrom(...ENTRY_NAMES),
    breaks: fc.array(fc.tuple(fc.nat({ max: 2 }), FIELD, valueSpec), {
      minLength: 0,
      maxLength: 2,
    }),
  }),
);

/** The call's arguments, built afresh for one side. */
function argsOf(call: Call, world: ScreensWorld, now: number): unknown[] {
  if ('args' in call) return call.args.map((spec) => build(spec, world));
  const args = templateOf(call.entry, world, now);
  for (const [arg, field, spec] of call.breaks) {
    const value = build(spec, world);
    args[arg] = field === null ? value : withField(args[arg], field, value);
  }
  return args;
}

/** What two drivers must agree on: answered, or the refusal's code and the field it names. */
const comparable = (outcome: Outcome) =>
  'answered' in outcome
    ? 'answered'
    : {
        code: outcome.code,
        field: (outcome.meta as { field?: unknown } | null)?.field ?? null,
        reason: (outcome.meta as { reason?: unknown } | null)?.reason ?? null,
      };

interface Side {
  readonly driver: Driver;
  readonly world: ScreensWorld;
  last: unknown;
  readonly dispose: () => Promise<void>;
}

async function open(factory: DriverFactory): Promise<Side> {
  const clock = createManualClock(KIT_T0);
  const { driver, dispose } = await factory({ clock, hooks: {} });
  const world = await makeWorld(driver);
  return { driver, world, last: await snapshot(driver, world), dispose };
}

/** Runs one call on one side: a refusal is clean and changes nothing. */
async function step(side: Side, call: Call, where: string): Promise<Outcome> {
  const args = argsOf(call, side.world, side.driver.clock.now());
  const outcome = await outcomeOf(() => ENTRIES[call.entry]?.(side.driver, args));
  const now = await snapshot(side.driver, side.world);
  if (!('answered' in outcome))
    expect(now, `${where}: the refusal changed state`).toEqual(side.last);
  side.last = now;
  return outcome;
}

/**
 * Draws `runs` calls of every public entry point with hostile arguments from `seed`, and runs
 * them in order on the driver under test and on the reference, each over the same small world.
 * Every refusal is a registered code whose toJSON() serialises and changes nothing; the two
 * drivers answer alike, call for call; no prototype is polluted.
 */
export async function runFuzz(
  factory: DriverFactory,
  reference: DriverFactory,
  options: FuzzOptions,
): Promise<void> {
  const calls = fc.sample(callSpec, { seed: options.seed, numRuns: options.runs });
  const subject = await open(factory);
  const mirror = await open(reference);
  try {
    for (const [index, call] of calls.entries()) {
      const where = `fuzz seed ${options.seed}, call ${index} (${JSON.stringify(call)})`;
      try {
        const mine = await step(subject, call, where);
        const theirs = await step(mirror, call, `${where} on the reference`);
        expect(comparable(mine), `${where}: answers as the reference does`).toEqual(
          comparable(theirs),
        );
      } catch (error) {
        // Every failure names the seed and call that replay it (fuzzSeed).
        if (error instanceof Error && !error.message.includes('fuzz seed')) {
          error.message = `${where}: ${error.message}`;
        }
        throw error;
      }
    }
    expect(
      ({} as Record<string, unknown>).polluted,
      'Object.prototype was polluted',
    ).toBeUndefined();
  } finally {
    await subject.dispose();
    await mirror.dispose();
  }
}

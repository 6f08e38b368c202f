import { createManualClock, type Driver } from '@berth/core';
import fc from 'fast-check';
import { expect } from 'vitest';
import {
  makeWorld,
  type Outcome,
  outcomeOf,
  type ScreensWorld,
  snapshot,
} from '../groups/answers/screens-world.js';
import { type DriverFactory, KIT_LIFECYCLE_RETENTION, KIT_T0 } from '../kit.js';
import { DRIVERLESS } from './app-entries.js';
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
export type Call =
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

/** `text` with this side's world ids as labels: the ids differ between the two drivers. */
function labelled(text: unknown, world: ScreensWorld): unknown {
  if (typeof text !== 'string') return text;
  const ids = { readyId: world.readyId, deadId: world.deadId, runId: world.runId };
  let out = text.replaceAll(world.fence.jobId, '<fence.jobId>');
  for (const [label, id] of Object.entries(ids)) out = out.replaceAll(id, `<${label}>`);
  return out;
}

/**
 * What two drivers must agree on: answered, or the refusal's code, the field (or option) it
 * names and why.
 */
const comparable = (outcome: Outcome, world: ScreensWorld) => {
  if ('answered' in outcome) return 'answered';
  const meta = outcome.meta as { field?: unknown; option?: unknown; reason?: unknown } | null;
  return {
    code: outcome.code,
    field: labelled(meta?.field ?? meta?.option ?? null, world),
    reason: labelled(meta?.reason ?? null, world),
  };
};

interface Side {
  readonly driver: Driver;
  readonly world: ScreensWorld;
  last: unknown;
  readonly dispose: () => Promise<void>;
}

async function open(factory: DriverFactory): Promise<Side> {
  const clock = createManualClock(KIT_T0);
  const { driver, dispose } = await factory({
    clock,
    hooks: {},
    lifecycleRetention: KIT_LIFECYCLE_RETENTION,
  });
  const world = await makeWorld(driver);
  return { driver, world, last: await snapshot(driver, world), dispose };
}

/** Runs one call on one side: a refusal is clean and changes nothing. */
async function step(side: Side, call: Call, where: string): Promise<Outcome> {
  const args = argsOf(call, side.world, side.driver.clock.now());
  const outcome = await outcomeOf(async () => ENTRIES[call.entry]?.(side.driver, args));
  if (DRIVERLESS.has(call.entry)) return outcome;
  const now = await snapshot(side.driver, side.world);
  if (!('answered' in outcome))
    expect(now, `${where}: the refusal changed state`).toEqual(side.last);
  side.last = now;
  return outcome;
}

/**
 * Runs `calls` in order on the driver under test and on the reference, each over the same small
 * world. Every refusal is a registered code whose toJSON() serialises and changes nothing; the
 * two drivers answer alike, call for call; no prototype is polluted. `label` names a call in a
 * failure, so it can be replayed.
 */
export async function runCalls(
  factory: DriverFactory,
  reference: DriverFactory,
  calls: readonly Call[],
  label: (index: number, call: Call) => string,
): Promise<void> {
  const subject = await open(factory);
  const mirror = await open(reference);
  try {
    for (const [index, call] of calls.entries()) {
      const where = label(index, call);
      try {
        const mine = await step(subject, call, where);
        const theirs = await step(mirror, call, `${where} on the reference`);
        expect(comparable(mine, subject.world), `${where}: answers as the reference does`).toEqual(
          comparable(theirs, mirror.world),
        );
      } catch (error) {
        // Every failure names the call that replays it.
        if (error instanceof Error && !error.message.includes(where)) {
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

/**
 * Draws `runs` calls of every public entry point with hostile arguments from `seed`, and runs
 * them (runCalls); a failure names the seed and call that replay it (`fuzzSeed`).
 */
export function runFuzz(
  factory: DriverFactory,
  reference: DriverFactory,
  options: FuzzOptions,
): Promise<void> {
  const calls = fc.sample(callSpec, { seed: options.seed, numRuns: options.runs });
  return runCalls(
    factory,
    reference,
    calls,
    (index, call) => `fuzz seed ${options.seed}, call ${index} (${JSON.stringify(call)})`,
  );
}

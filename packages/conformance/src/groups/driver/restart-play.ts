import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { createManualClock, type Driver, isBerthError } from '@berth/core';
import { applyOp } from '../../differential/apply.js';
import type { Op } from '../../differential/ops.js';
import { learnJobs, openWorld, type World } from '../../differential/world.js';
import {
  type CaseContext,
  type DriverFactory,
  KIT_LIFECYCLE_RETENTION,
  KIT_T0,
} from '../../kit.js';
import { type Normalized, normalizeAnswer } from '../../normalize.js';
import type { ServerControl } from '../../server-control.js';
import {
  type Control,
  MARK,
  type MarkOp,
  type Process,
  type Step,
  slotJobId,
} from './restart-script.js';

type Side = Readonly<Record<Process, World>>;

/** Past the grace by this much: the outage, and the wait before the purge that collects markers. */
const PAST_GRACE_MS = 250;
/** How long an instance may take to answer again once its server is back. */
const RECOVERY_MS = 30_000;
/** How often a returning instance is asked whether it answers again. */
const PROBE_MS = 250;
/** Mismatches a failure lists; later ones mostly follow from these. */
const SHOWN = 12;

const isMarkOp = (op: Op | MarkOp): op is MarkOp =>
  op.kind === 'markGet' || op.kind === 'markAdvance' || op.kind === 'enqueueMarked';

async function callMark(world: World, op: MarkOp): Promise<unknown> {
  const { marks } = world.driver;
  if (op.kind === 'markGet') return marks.get(op.name);
  if (op.kind === 'markAdvance') return marks.advance(op.name, op.value);
  const answer = await world.driver.enqueue({
    id: slotJobId(op.value),
    name: 'tick',
    queue: op.queue,
    advanceMark: { name: MARK, value: op.value },
  });
  if ('id' in answer) learnJobs(world, [answer]);
  return answer;
}

/** One step's normalized answer on one process (refusals included). */
async function answer(world: World, op: Op | MarkOp): Promise<Normalized> {
  if (!isMarkOp(op)) return applyOp(world, op);
  const context = { labels: world.labels, t0: world.t0, driverName: world.driver.name };
  try {
    const answered = await callMark(world, op);
    world.refusal = undefined;
    return normalizeAnswer(answered, context);
  } catch (error) {
    world.refusal = error;
    return normalizeAnswer(error, context);
  }
}

/** A refusal's messages down its cause chain: what the normalized answer leaves out. */
function refusalChain(refusal: unknown): string | undefined {
  const messages: string[] = [];
  for (let at = refusal; at instanceof Error && messages.length < 4; at = at.cause) {
    messages.push(at.message);
  }
  return messages.length === 0 ? undefined : messages.join(' <- ');
}

/**
 * Waits until `driver` answers `check()` again, probing every PROBE_MS: a driver may take a moment
 * to reconnect, and a call made meanwhile may fail DRIVER_UNAVAILABLE or wait out its own
 * timeout (the NATS client holds a request made while it reconnects). Any other refusal fails.
 */
async function recovered(driver: Driver, process: Process): Promise<void> {
  const deadline = Date.now() + RECOVERY_MS;
  for (;;) {
    const probe = driver.check().then(
      () => ({ up: true as const }),
      (error: unknown) => ({ up: false as const, error }),
    );
    const state = await Promise.race([probe, sleep(PROBE_MS).then(() => undefined)]);
    if (state?.up === true) return;
    const refusal = state?.error;
    if (
      (state !== undefined && !isBerthError(refusal, 'DRIVER_UNAVAILABLE')) ||
      Date.now() > deadline
    ) {
      const what = `process ${process} did not answer check() again after the server came back`;
      throw new Error(what, { cause: refusal });
    }
    if (state !== undefined) await sleep(PROBE_MS);
  }
}

async function disturb(control: Control, server: ServerControl, side: Side): Promise<void> {
  switch (control) {
    case 'restart':
      await server.restart();
      break;
    case 'outage':
      await server.outage(server.replayGraceMs + PAST_GRACE_MS);
      break;
    case 'freeze b':
      await server.freeze(side.b.driver);
      return;
    case 'thaw b':
      await server.thaw(side.b.driver);
      await recovered(side.b.driver, 'b');
      return;
    case 'wait out the grace':
      await sleep(server.replayGraceMs + PAST_GRACE_MS);
      return;
  }
  await Promise.all([recovered(side.a.driver, 'a'), recovered(side.b.driver, 'b')]);
}

/** Both processes of one side: `driver` and a sibling sharing what the side's answers taught. */
const sideOf = (world: World, sibling: Driver): Side => ({
  a: world,
  b: { ...world, driver: sibling },
});

interface Mismatch {
  readonly at: number;
  readonly step: Step;
  readonly tested: Normalized;
  readonly reference: Normalized;
  /** The tested side's refusal, message and causes, when it refused. */
  readonly why: string | undefined;
}

function failure(mismatches: readonly Mismatch[], names: readonly [string, string]): Error {
  const show = (value: unknown) => JSON.stringify(value);
  const lines = mismatches
    .slice(0, SHOWN)
    .flatMap(({ at, step, tested, reference, why }) => [
      `step ${at}: ${show(step)}`,
      `  ${names[0]}: ${show(tested)}`,
      ...(why === undefined ? [] : [`    (refused: ${why})`]),
      `  ${names[1]}: ${show(reference)}`,
    ]);
  const more = mismatches.length - SHOWN;
  return new Error(
    [
      `${mismatches.length} answers differ between ${names[0]} and the reference ${names[1]}:`,
      ...lines,
      ...(more > 0 ? [`...and ${more} more`] : []),
    ].join('\n'),
  );
}

const NO_SERVER =
  'answers no `server`: group restart restarts the server its drivers talk to. Pass KitOptions ' +
  '`serverFactory` (a factory over a private server whose DriverUnderTest answers `server`), or, ' +
  'for a driver whose store lives in its own process, answer `server: inProcessStore`';

/**
 * Plays `steps` on two processes of the driver under test and on two of the reference, answer
 * for answer; controls act on the tested side's server only. Every answer that differs is
 * collected, and the case fails listing them.
 */
export async function playRestart(
  context: CaseContext,
  steps: readonly Step[],
  reference: DriverFactory,
): Promise<void> {
  const { server } = context;
  if (server === undefined) throw new Error(`the ${context.driver.name} factory ${NO_SERVER}`);
  const tested = sideOf(
    openWorld(context.driver, context.clock, context.t0),
    await context.sibling(),
  );
  const clock = createManualClock(KIT_T0);
  const made = await reference({ clock, hooks: {}, lifecycleRetention: KIT_LIFECYCLE_RETENTION });
  const siblings: Driver[] = [];
  try {
    const sibling = await made.sibling?.({
      clock,
      hooks: {},
      lifecycleRetention: KIT_LIFECYCLE_RETENTION,
    });
    if (sibling === undefined) throw new Error('the reference factory answers no sibling()');
    siblings.push(sibling);
    const against = sideOf(openWorld(made.driver, clock, KIT_T0), sibling);
    const mismatches: Mismatch[] = [];
    for (const [at, step] of steps.entries()) {
      if ('control' in step) {
        await disturb(step.control, server, tested);
        continue;
      }
      const mine = await answer(tested[step.on], step.op);
      const theirs = await answer(against[step.on], step.op);
      if (!isDeepStrictEqual(mine, theirs)) {
        const why = refusalChain(tested[step.on].refusal);
        mismatches.push({ at, step, tested: mine, reference: theirs, why });
      }
    }
    if (mismatches.length > 0) {
      throw failure(mismatches, [context.driver.name, made.driver.name]);
    }
  } finally {
    await Promise.allSettled(siblings.map((opened) => opened.close()));
    await made.dispose();
  }
}

import { createScheduler, type Driver, type ManualClock } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { countingCreations, heldCall, interposed } from './interpose.js';

const MINUTE = 60_000;
const SCHEDULES = [{ name: 'minutely', cron: '* * * * *', job: { name: 'report', queue: 'cron' } }];
const TIMING = { leaseTtlMs: 30_000, tickMs: 1_000 };
/**
 * Schedulers whose first lead runs the latest past slot (the default runs none): the slot each
 * crash is about.
 */
const FIRST_LEAD = { schedules: SCHEDULES, ...TIMING, catchUp: { neverRun: 1 } };

/** Thrown where a scheduler's process "dies": it runs no other line, and keeps its lease. */
class Killed extends Error {}

/** Runs every slot job to completion, then purges the completed ones as retention does. */
async function runAndPurge(driver: Driver, clock: ManualClock): Promise<number> {
  for (;;) {
    const [job] = await driver.claim({
      queues: ['cron'],
      workerId: 'w',
      visibilityTimeoutMs: MINUTE,
    });
    if (job === undefined) break;
    await driver.ack({ jobId: job.id, workerId: 'w', claim: job.claim });
  }
  return driver.purge({ states: ['completed'], olderThan: clock.now() + 1 });
}

/** How many jobs each slot made, over the scenario: every value must be 1. */
const creations = (created: Map<string, number>) => [...created.values()];

export const schedulerKilledAfterEnqueue: GoldenScenario = {
  name: 'scheduler-killed-after-enqueue',
  asserts:
    'a leader killed once its slot’s enqueue landed, before it read the answer, whose job retention then purged, never has the slot enqueued again by the next leader',
  async play(context) {
    const { clock, t0, note } = context;
    const { driver, created } = countingCreations(context.driver);
    // a's enqueue lands, and a dies before it reads the answer; it never runs again.
    const dying = interposed(
      driver,
      () => {},
      (call) => {
        if (call === 'enqueue') throw new Killed('killed after the enqueue');
      },
    );
    await clock.set(t0 + MINUTE + 10_000);
    const a = createScheduler({ ...FIRST_LEAD, driver: dying, holderId: 'a' });
    const first = await a.tick();
    note('a ticks at minute 1 and dies once its enqueue landed', {
      slots: first.enqueued.map((slot) => slot.slot - t0),
    });
    note('slot jobs run and purged', await runAndPurge(context.driver, clock));
    // a never ticks again and never releases its lease: b leads once it lapses.
    await clock.set(t0 + MINUTE + 45_000);
    const b = createScheduler({ ...FIRST_LEAD, driver, holderId: 'b' });
    const takeover = await b.tick();
    note('b takes the lead and catches up', {
      leader: takeover.leader,
      slots: takeover.enqueued.map((slot) => slot.slot - t0),
    });
    await clock.set(t0 + 2 * MINUTE + 10_000);
    const next = await b.tick();
    note('b ticks at minute 2', { slots: next.enqueued.map((slot) => slot.slot - t0) });
    await b.stop();
    note('jobs each slot made', creations(created));
  },
};

export const schedulerKilledBeforeEnqueue: GoldenScenario = {
  name: 'scheduler-killed-before-enqueue',
  asserts:
    'a leader killed before its slot’s enqueue landed has the slot enqueued exactly once by the next leader, never again once its job ran and was purged',
  async play(context) {
    const { clock, t0, note } = context;
    const { driver, created } = countingCreations(context.driver);
    // a dies on its way to the enqueue (after any call it makes before it), never to run again.
    const dying = interposed(driver, (call) => {
      if (call === 'enqueue') throw new Killed('killed before the enqueue');
    });
    await clock.set(t0 + MINUTE + 10_000);
    const a = createScheduler({ ...FIRST_LEAD, driver: dying, holderId: 'a' });
    const first = await a.tick();
    note('a ticks at minute 1 and dies before its enqueue', {
      slots: first.enqueued.map((slot) => slot.slot - t0),
    });
    await clock.set(t0 + MINUTE + 45_000);
    const b = createScheduler({ ...FIRST_LEAD, driver, holderId: 'b' });
    const takeover = await b.tick();
    note('b takes the lead and catches up', {
      leader: takeover.leader,
      slots: takeover.enqueued.map((slot) => slot.slot - t0),
    });
    note('slot jobs run and purged', await runAndPurge(context.driver, clock));
    await clock.set(t0 + 2 * MINUTE + 10_000);
    const next = await b.tick();
    note('b ticks at minute 2', { slots: next.enqueued.map((slot) => slot.slot - t0) });
    await b.stop();
    note('jobs each slot made', creations(created));
  },
};

export const schedulerStalledLeader: GoldenScenario = {
  name: 'scheduler-stalled-leader',
  asserts:
    'a catch-up whose driver calls outlast its lease, while another scheduler leads and retention purges, enqueues no slot a second time',
  async play(context) {
    const { clock, t0, note } = context;
    const { driver, created } = countingCreations(context.driver);
    const held = heldCall();
    let holding = true;
    const slow = interposed(driver, async (call) => {
      if (holding && call === 'enqueue') {
        holding = false;
        await held.wait;
      }
    });
    const options = { schedules: SCHEDULES, catchUp: { maxSlots: 3, neverRun: 3 }, ...TIMING };
    await clock.set(t0 + 3 * MINUTE + 10_000);
    const a = createScheduler({ ...options, driver: slow, holderId: 'a' });
    const stalled = a.tick();
    // a's first enqueue hangs until its lease has lapsed and b leads.
    for (let round = 0; round < 5_000 && holding; round += 1) {
      await new Promise<void>((resolve) => setTimeout(resolve, 1));
    }
    await clock.advance(31_000);
    const b = createScheduler({ ...options, driver, holderId: 'b' });
    const leading = await b.tick();
    note('b leads while a hangs', {
      leader: leading.leader,
      slots: leading.enqueued.map((slot) => slot.slot - t0),
    });
    note('slot jobs run and purged', await runAndPurge(context.driver, clock));
    held.open();
    const late = await stalled;
    note('a’s stalled tick ends', {
      slots: late.enqueued.map((slot) => slot.slot - t0),
      leader: a.isLeader(),
    });
    await clock.advance(1_000);
    const again = await b.tick();
    note('b ticks again', { leader: again.leader, slots: again.enqueued.length });
    note('jobs each slot made', creations(created));
    await b.stop();
  },
};

export const schedulerStopLeavesLead: GoldenScenario = {
  name: 'scheduler-stop-leaves-lead',
  asserts:
    'once stop() resolved, no tick of the stopped scheduler (in flight, or asked for during the stop) holds or retakes the lead',
  async play(context) {
    const { driver, clock, t0, note } = context;
    const held = heldCall();
    let holding = false;
    const slow = interposed(driver, async (call) => {
      if (holding && call === 'leases.renew') {
        holding = false;
        await held.wait;
      }
    });
    await clock.set(t0 + 10_000);
    const a = createScheduler({ ...FIRST_LEAD, driver: slow, holderId: 'a' });
    const b = createScheduler({ ...FIRST_LEAD, driver, holderId: 'b' });
    note('a leads', (await a.tick()).leader);
    holding = true;
    const inFlight = a.tick();
    // The tick in flight hangs in its lease renewal while a stops.
    for (let round = 0; round < 5_000 && holding; round += 1) {
      await new Promise<void>((resolve) => setTimeout(resolve, 1));
    }
    const stopped = a.stop();
    // Asked for while the stop waits on the tick in flight, as a timer firing then would be.
    const queued = a.tick();
    held.open();
    await stopped;
    const ticks = await Promise.all([inFlight, queued]);
    note(
      'a’s ticks around the stop',
      ticks.map((tick) => tick.leader),
    );
    note(
      'lease holder once a stopped',
      (await driver.leases.holder('berth.scheduler'))?.holder ?? null,
    );
    note('a ticks after its stop', await a.tick());
    await clock.advance(1);
    note('b ticks', (await b.tick()).leader);
    await b.stop();
  },
};

import { setTimeout as sleep } from 'node:timers/promises';
import { type DriverFactory, runKit } from '@berth/conformance';
import type { Driver } from '@berth/core';
import { expect, it } from 'vitest';
import { memory } from './broken.js';

/** What every call costs once the box is busy: far above the scale group's noise floor. */
const BUSY_MS = 40;
/**
 * The box turns busy after this many enqueueMany calls, all stores counted: mid-way through the
 * big backlog's seeding (the small one takes 5, the big one 29).
 */
const CALM_ENQUEUES = 12;

/**
 * A sound memory driver on a box that a neighbour makes busy part-way through the case: from
 * then on every measured call of every store takes BUSY_MS more. Nothing depends on a store's
 * backlog, so the scale group must pass it.
 */
function onBusyBox(): DriverFactory {
  let enqueues = 0;
  const busy = () => (enqueues >= CALM_ENQUEUES ? sleep(BUSY_MS) : Promise.resolve());
  const slowed = (real: Driver): Driver => ({
    ...real,
    enqueueMany: async (requests) => {
      enqueues += 1;
      return real.enqueueMany(requests);
    },
    claim: async (request) => {
      await busy();
      return real.claim(request);
    },
    purge: async (request) => {
      await busy();
      return real.purge(request);
    },
    events: {
      ...real.events,
      publish: async (name, payload, options) => {
        await busy();
        return real.events.publish(name, payload, options);
      },
      purgeExpired: async (options) => {
        await busy();
        return real.events.purgeExpired(options);
      },
    },
  });
  return async (context) => {
    const made = await memory(context);
    return { ...made, driver: slowed(made.driver) };
  };
}

it('the scale group passes a sound driver whose box turns busy during the case: both backlogs are measured in the same moments', async () => {
  // The smallest backlog the group accepts (7,000 rows of each kind).
  const report = await runKit(onBusyBox(), { only: ['scale'], scaleBacklog: 1 });
  expect(report.failures).toEqual([]);
  expect(report.ran).toBe(1);
}, 120_000);

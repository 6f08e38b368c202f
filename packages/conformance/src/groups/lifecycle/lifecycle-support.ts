import type { Driver, LifecycleEvent, LifecycleReadRequest } from '@berth/core';
import { expect } from 'vitest';

/** An event as a case states it: everything but the driver-made position. */
export type Told = Omit<LifecycleEvent, 'position'>;

export const told = (events: readonly LifecycleEvent[]): Told[] =>
  events.map(({ position: _position, ...rest }) => rest);

/**
 * Every event matching `request` from its `after` on, reading page after page until a read
 * says it caught up; fails the case past `maxReads` (a read that never catches up).
 */
export async function readAll(
  driver: Driver,
  request: LifecycleReadRequest = {},
  maxReads = 50,
): Promise<LifecycleEvent[]> {
  const events: LifecycleEvent[] = [];
  let after = request.after;
  for (let reads = 0; reads < maxReads; reads += 1) {
    const page = await driver.lifecycle.read({
      ...request,
      ...(after === undefined ? {} : { after }),
    });
    for (const event of page.events) expect(typeof event.position).toBe('string');
    events.push(...page.events);
    if (page.caughtUp) return events;
    after = page.next;
  }
  throw new Error(`lifecycle.read did not catch up within ${maxReads} reads`);
}

/** The job's events, oldest first, without positions. */
export async function toldOf(driver: Driver, jobId: string): Promise<Told[]> {
  return told(await readAll(driver, { jobId }));
}

/** `type@attempt` per event: a compact view for cases about kinds and order. */
export const kinds = (events: readonly Told[]): string[] =>
  events.map((event) => `${event.type}@${event.attempt}`);

/** The position of the newest event, failing the case when the stream is empty. */
export async function endOf(driver: Driver): Promise<string> {
  const end = await driver.lifecycle.end();
  if (end === undefined) throw new Error('expected the lifecycle stream to hold an event');
  return end;
}

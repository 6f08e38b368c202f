import type { Driver } from '@berth/core';
import { APP_ENTRIES, type Entry } from './app-entries.js';

// biome-ignore lint/suspicious/noExplicitAny: the fuzz calls every entry point with anything.
type Loose = any;
const loose = (driver: Driver): Loose => driver;

/** Every public entry point of a driver and of the app's API over it, by name. */
export const ENTRIES: Readonly<Record<string, Entry>> = {
  enqueue: (d, [a]) => loose(d).enqueue(a),
  enqueueMany: (d, [a]) => loose(d).enqueueMany(a),
  claim: (d, [a]) => loose(d).claim(a),
  ack: (d, [a, b]) => loose(d).ack(a, b),
  nack: (d, [a, b]) => loose(d).nack(a, b),
  suspend: (d, [a, b]) => loose(d).suspend(a, b),
  extend: (d, [a, b]) => loose(d).extend(a, b),
  progress: (d, [a, b]) => loose(d).progress(a, b),
  ackMany: (d, [a]) => loose(d).ackMany(a),
  nackMany: (d, [a]) => loose(d).nackMany(a),
  extendMany: (d, [a, b]) => loose(d).extendMany(a, b),
  get: (d, [a, b]) => loose(d).get(a, b),
  cancel: (d, [a, b]) => loose(d).cancel(a, b),
  promote: (d, [a, b]) => loose(d).promote(a, b),
  requeue: (d, [a, b]) => loose(d).requeue(a, b),
  delete: (d, [a, b]) => loose(d).delete(a, b),
  list: (d, [a]) => loose(d).list(a),
  purge: (d, [a]) => loose(d).purge(a),
  'steps.get': (d, [a, b]) => loose(d).steps.get(a, b),
  'steps.put': (d, [a, b]) => loose(d).steps.put(a, b),
  'steps.list': (d, [a]) => loose(d).steps.list(a),
  'attempts.list': (d, [a, b]) => loose(d).attempts.list(a, b),
  'events.publish': (d, [a, b, c]) => loose(d).events.publish(a, b, c),
  'events.find': (d, [a, b]) => loose(d).events.find(a, b),
  'events.list': (d, [a]) => loose(d).events.list(a),
  'leases.acquire': (d, [a, b, c]) => loose(d).leases.acquire(a, b, c),
  'leases.renew': (d, [a, b, c]) => loose(d).leases.renew(a, b, c),
  'leases.release': (d, [a, b]) => loose(d).leases.release(a, b),
  'leases.holder': (d, [a]) => loose(d).leases.holder(a),
  'leases.acquireSlot': (d, [a, b, c]) => loose(d).leases.acquireSlot(a, b, c, 60_000),
  'leases.releaseSlot': (d, [a, b]) => loose(d).leases.releaseSlot(a, b),
  'marks.get': (d, [a]) => loose(d).marks.get(a),
  'marks.advance': (d, [a, b]) => loose(d).marks.advance(a, b),
  'pauses.pause': (d, [a, b]) => loose(d).pauses.pause(a, b),
  'pauses.resume': (d, [a, b]) => loose(d).pauses.resume(a, b),
  'pauses.list': (d, [a]) => loose(d).pauses.list(a),
  'schedules.put': (d, [a, b]) => loose(d).schedules.put(a, b),
  'schedules.get': (d, [a, b]) => loose(d).schedules.get(a, b),
  'schedules.remove': (d, [a, b, c]) => loose(d).schedules.remove(a, b, c),
  'schedules.list': (d, [a]) => loose(d).schedules.list(a),
  'schedules.due': (d, [a, b]) => loose(d).schedules.due(a, b),
  ...APP_ENTRIES,
};

export const ENTRY_NAMES = Object.keys(ENTRIES);

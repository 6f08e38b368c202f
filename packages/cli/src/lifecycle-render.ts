import { LIFECYCLE_EVENT_TYPES, type LifecycleEvent, type LifecycleEventType } from '@berth/core';
import { formatRelative } from './duration.js';
import { escapeLine } from './escape.js';
import type { Colors } from './output.js';

/** The same colours as the states the types settle in (render.ts's paintState). */
export function paintLifecycleType(type: LifecycleEventType, color: Colors): string {
  switch (type) {
    case 'active':
      return color.cyan(type);
    case 'suspended':
      return color.blue(type);
    case 'completed':
      return color.dim(type);
    case 'retried':
    case 'failed':
      return color.yellow(type);
    case 'dead':
    case 'stalled':
      return color.red(type);
    case 'cancelled':
      return color.magenta(type);
    case 'progress':
      return type;
  }
}

const TYPE_WIDTH = Math.max(...LIFECYCLE_EVENT_TYPES.map((type) => type.length));

export const LIFECYCLE_HEAD = ['POSITION', 'AT', 'TYPE', 'JOB ID', 'NAME', 'QUEUE', 'ATTEMPT'];

/** One table row; positions, ids and names come from the store, so they are escaped. */
export function lifecycleRow(event: LifecycleEvent, now: number, color: Colors): string[] {
  return [
    escapeLine(event.position),
    formatRelative(event.at, now),
    paintLifecycleType(event.type, color),
    escapeLine(event.jobId),
    escapeLine(event.name),
    escapeLine(event.queue),
    String(event.attempt),
  ];
}

/** One line of `--follow`: ISO time as `jobs logs --follow` prints it, the type padded to align. */
export const lifecycleLineText = (event: LifecycleEvent, color: Colors): string =>
  [
    color.dim(escapeLine(event.position)),
    new Date(event.at).toISOString(),
    paintLifecycleType(event.type, color) + ' '.repeat(TYPE_WIDTH - event.type.length),
    escapeLine(event.jobId),
    escapeLine(event.name),
    escapeLine(event.queue),
    color.dim(`attempt ${event.attempt}`),
  ].join('  ');

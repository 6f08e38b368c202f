import type { EventRecord, JobRecord, JobState, Json, StepRecord } from '@berth/core';
import { formatRelative } from './duration.js';
import { clip, escapeLine } from './escape.js';
import type { Colors } from './output.js';

/** One colour per state, the same in every table: red needs a look, green is fine. */
export function paintState(state: JobState, color: Colors): string {
  switch (state) {
    case 'ready':
      return color.green(state);
    case 'running':
      return color.cyan(state);
    case 'delayed':
    case 'suspended':
      return color.blue(state);
    case 'completed':
      return color.dim(state);
    case 'failed':
      return color.yellow(state);
    case 'dead':
      return color.red(state);
    case 'cancelled':
      return color.magenta(state);
  }
}

/** JSON on one line; JSON leaves C1 controls and bidi marks raw, so it is escaped too. */
export const showJson = (value: Json | undefined): string =>
  value === undefined ? '' : escapeLine(JSON.stringify(value));

const errorLine = (error: { code?: string; message: string }): string =>
  `${error.code ?? 'Error'}: ${error.message}`;

/** An instant as ISO time and how far from now. */
export const showInstant = (at: number | undefined, now: number): string =>
  at === undefined ? '' : `${new Date(at).toISOString()} (${formatRelative(at, now)})`;

export const JOB_HEAD = [
  'ID',
  'NAME',
  'QUEUE',
  'STATE',
  'TRIES',
  'RUN AT',
  'CREATED',
  'LAST ERROR',
];

export function jobRow(job: JobRecord, now: number, color: Colors): string[] {
  return [
    escapeLine(job.id),
    escapeLine(job.name),
    escapeLine(job.queue),
    paintState(job.state, color),
    `${job.attempts}/${job.maxAttempts}`,
    formatRelative(job.runAt, now),
    formatRelative(job.createdAt, now),
    job.lastError === undefined ? '' : color.red(clip(errorLine(job.lastError), 48)),
  ];
}

export function jobFields(job: JobRecord, now: number, color: Colors): [string, string][] {
  const rows: [string, string | undefined][] = [
    ['id', job.id],
    ['run id', job.runId],
    ['name', job.name],
    ['queue', job.queue],
    ['state', paintState(job.state, color)],
    ['priority', String(job.priority)],
    ['attempts', `${job.attempts}/${job.maxAttempts}`],
    ['run at', showInstant(job.runAt, now)],
    ['created', showInstant(job.createdAt, now)],
    ['updated', showInstant(job.updatedAt, now)],
    ['finished', job.finishedAt === undefined ? undefined : showInstant(job.finishedAt, now)],
    [
      'claimed by',
      job.claimedBy === undefined ? undefined : `${job.claimedBy} (claim ${job.claim})`,
    ],
    ['lease until', job.visibleAt === undefined ? undefined : showInstant(job.visibleAt, now)],
    ['waiting for', job.waitFor],
    ['tenant', job.tenantId],
    ['idempotency key', job.idempotencyKey],
    ['concurrency key', job.concurrencyKey],
    ['enqueued by', job.enqueuedBy],
    ['parent', job.parentId],
    ['traceparent', job.traceparent],
    ['payload', showJson(job.payload)],
    ['result', job.result === undefined ? undefined : showJson(job.result)],
    ['progress', job.progress === undefined ? undefined : showJson(job.progress)],
  ];
  return rows
    .filter((row): row is [string, string] => row[1] !== undefined)
    .map(([key, value]) => [key, key === 'state' ? value : escapeLine(value)]);
}

export const STEP_HEAD = ['#', 'STEP', 'STATUS', 'TRIES', 'UPDATED', 'DETAIL'];

export function stepRow(step: StepRecord, index: number, now: number, color: Colors): string[] {
  const detail =
    step.error !== undefined
      ? color.red(clip(errorLine(step.error), 60))
      : step.status === 'completed'
        ? clip(showJson(step.output), 60)
        : step.eventName !== undefined
          ? `waits for ${escapeLine(step.eventName)}${step.wakeAt === undefined ? '' : ` until ${new Date(step.wakeAt).toISOString()}`}`
          : step.wakeAt === undefined
            ? ''
            : `wakes ${formatRelative(step.wakeAt, now)}`;
  const status = step.status === 'failed' ? color.red(step.status) : step.status;
  return [
    String(index + 1),
    escapeLine(step.name),
    status,
    String(step.attempts),
    formatRelative(step.updatedAt, now),
    detail,
  ];
}

export const EVENT_HEAD = ['ID', 'NAME', 'PUBLISHED', 'EXPIRES', 'PAYLOAD'];

export function eventRow(event: EventRecord, now: number): string[] {
  return [
    escapeLine(event.id),
    escapeLine(event.name),
    formatRelative(event.publishedAt, now),
    formatRelative(event.expiresAt, now),
    clip(showJson(event.payload), 60),
  ];
}

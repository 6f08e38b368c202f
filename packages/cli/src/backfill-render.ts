import type { BackfillRun, BackfillStatus } from '@berth/core';
import { formatRelative } from './duration.js';
import { clip, escapeLine } from './escape.js';
import type { Colors } from './output.js';
import { showInstant, showJson } from './render.js';

/** One colour per status, as `paintState` does for jobs: red needs a look, green is going. */
export function paintStatus(status: BackfillStatus, color: Colors): string {
  switch (status) {
    case 'running':
      return color.cyan(status);
    case 'paused':
      return color.yellow(status);
    case 'completed':
      return color.dim(status);
    case 'failed':
      return color.red(status);
    case 'cancelled':
      return color.magenta(status);
  }
}

export const BACKFILL_HEAD = [
  'RUN ID',
  'NAME',
  'STATUS',
  'ROWS',
  'PASSES',
  'CURSOR',
  'STARTED',
  'UPDATED',
  'LAST ERROR',
];

export const BACKFILL_ALIGN = [
  'left',
  'left',
  'left',
  'right',
  'right',
  'left',
  'left',
  'left',
  'left',
] as const;

export function backfillRow(run: BackfillRun, now: number, color: Colors): string[] {
  return [
    escapeLine(run.runId),
    escapeLine(run.name),
    paintStatus(run.status, color),
    String(run.rowsDone),
    String(run.passes),
    // The cursor's start: `show` prints all of it.
    clip(showJson(run.cursor), 24),
    formatRelative(run.startedAt, now),
    formatRelative(run.updatedAt, now),
    run.lastError === undefined ? '' : color.red(clip(run.lastError, 48)),
  ];
}

/** Every field of a run, for `show` and after an action. */
export function backfillFields(run: BackfillRun, now: number, color: Colors): [string, string][] {
  const rows: [string, string | undefined][] = [
    ['run id', escapeLine(run.runId)],
    ['name', escapeLine(run.name)],
    ['status', paintStatus(run.status, color)],
    ['tenant', run.tenantId === undefined ? undefined : escapeLine(run.tenantId)],
    ['rows done', String(run.rowsDone)],
    ['passes', String(run.passes)],
    ['cursor', showJson(run.cursor)],
    ['runner job', escapeLine(run.jobId)],
    ['started', showInstant(run.startedAt, now)],
    ['updated', showInstant(run.updatedAt, now)],
    ['finished', run.finishedAt === undefined ? undefined : showInstant(run.finishedAt, now)],
    ['last error', run.lastError === undefined ? undefined : color.red(escapeLine(run.lastError))],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== undefined);
}

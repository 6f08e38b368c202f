import type { ScreensWorld } from '../groups/answers/screens-world.js';
import { APP_ENTRIES, appTemplateOf } from './app-entries.js';
import type { Call } from './run.js';
import type { ValueSpec } from './values.js';

/** What each argument of each app entry point is swept with: the usual wrong turns. */
const SWEPT: readonly ValueSpec[] = [
  { k: 'null' },
  { k: 'undef' },
  { k: 'num', v: 1 },
  { k: 'obj', entries: [] },
  { k: 'bare' },
  { k: 'proxy' },
  { k: 'getter' },
];

/** A world of the right shape, only to count each entry point's arguments. */
const SHAPE: ScreensWorld = {
  fence: { jobId: '', workerId: '', claim: 0 },
  runId: '',
  deadId: '',
  readyId: '',
};

/**
 * Every app entry point (the client's calls, defineJob, createWorker, ...) with each of its
 * arguments in turn replaced by each swept value, the others valid: a deterministic pass the
 * random fuzz may miss (a `publish(null, payload)`).
 */
export const SWEEP_CALLS: readonly Call[] = Object.keys(APP_ENTRIES).flatMap((entry) =>
  Array.from({ length: appTemplateOf(entry, SHAPE, 0)?.length ?? 0 }, (_, arg) =>
    SWEPT.map((value): Call => ({ entry, breaks: [[arg, null, value]] })),
  ).flat(),
);

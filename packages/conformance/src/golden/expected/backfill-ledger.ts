import type { Transcript } from '../transcript.js';

/** Run 1 as the contract says each call leaves it. */
const run1 = {
  runId: 'run1',
  name: 'reindex',
  status: 'running',
  cursor: { after: 0 },
  passes: 0,
  rowsDone: 0,
  jobId: 'job1',
  startedAt: '+0',
  updatedAt: '+0',
};
const afterPass0 = {
  ...run1,
  cursor: { after: 100 },
  passes: 1,
  rowsDone: 100,
  updatedAt: '+1000',
};
const paused = { ...afterPass0, status: 'paused', updatedAt: '+2000' };
const afterPass1 = { ...paused, cursor: { after: 200 }, passes: 2, rowsDone: 200 };
const resumed = { ...afterPass1, status: 'running', jobId: 'job2' };
const completed = {
  ...resumed,
  status: 'completed',
  cursor: null,
  passes: 3,
  rowsDone: 240,
  updatedAt: '+3000',
  finishedAt: '+3000',
};
const run2 = {
  runId: 'run2',
  name: 'reindex',
  status: 'running',
  cursor: null,
  passes: 0,
  rowsDone: 0,
  jobId: 'job3',
  startedAt: '+3000',
  updatedAt: '+3000',
};
const failed = { ...run2, status: 'failed', finishedAt: '+3000', lastError: 'boom' };

export const backfillLedger: Transcript = [
  { op: 'start reindex', answer: { started: true, run: run1 } },
  { op: 'advance 1000ms', answer: '+1000' },
  { op: 'start reindex again (a retried lost answer)', answer: { started: true, run: run1 } },
  { op: 'start reindex as a second run', answer: { started: false, active: [run1] } },
  { op: 'commit pass 0', answer: { changed: true, run: afterPass0 } },
  { op: 'commit pass 0 again', answer: { changed: false, run: afterPass0 } },
  { op: 'advance 1000ms', answer: '+2000' },
  { op: 'pause', answer: { changed: true, run: paused } },
  { op: 'commit pass 1 (in flight at the pause)', answer: { changed: true, run: afterPass1 } },
  { op: 'resume with a new runner job', answer: { changed: true, run: resumed } },
  { op: 'commit pass 2 by the old runner', answer: { changed: false, run: resumed } },
  { op: 'get as tenant acme', answer: '(none)' },
  { op: 'advance 1000ms', answer: '+3000' },
  { op: 'commit pass 2 with next null', answer: { changed: true, run: completed } },
  { op: 'cancel the completed run', answer: { changed: false, run: completed } },
  { op: 'start reindex as a second run', answer: { started: true, run: run2 } },
  { op: 'fail it', answer: { changed: true, run: failed } },
  { op: 'list', answer: [failed, completed] },
  { op: 'list failed', answer: [failed] },
];

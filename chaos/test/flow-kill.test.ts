import { serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { runFlowKill } from '../src/flow/kill-run.ts';

const INVOKERS = 200;
const FLOWS = 20;

// Flows on PostgreSQL through worker SIGKILLs: 200 parents each step.invoke three children (one,
// then two side by side) and return their sum, 20 enqueueFlow parents read their three children
// with step.children; a worker holding running jobs is SIGKILLed three times mid-run. Every
// parent completes with its children's sum, each (parent, step) has exactly one child job (an
// attempt that runs again meets its child, deduped), every child completes.
it('flows: parents whose workers are SIGKILLed mid-run complete with their children, none enqueued twice', async () => {
  const report = await runFlowKill({
    pgUrl: await serverUrl('pg'),
    invokers: INVOKERS,
    flows: FLOWS,
    // Children take a while: kills land while children and parents are mid-flight.
    workMs: 20,
    workers: 3,
    concurrency: 8,
    kills: 3,
    // Long next to any claim latency: a wake that did not come shows as a wait of ~20 s. A kill
    // between a child's settle and its announcement costs one such wait (the poll finds the
    // child, by design); any other late wake is a lost one.
    eventPollMs: 20_000,
    lateMs: 10_000,
    deadlineMs: 75_000,
  });
  const counts = {
    timedOut: report.timedOut,
    kills: report.kills,
    parents: report.parents,
    children: report.children,
    missing: report.missing,
    wrong: report.wrong,
    twice: report.twice,
    childMissing: report.childMissing,
    badChildId: report.badChildId,
    childNotCompleted: report.childNotCompleted,
    orphans: report.orphans,
    lostWakes: report.late.filter((late) => late.cause === undefined).length,
  };
  const summary = `flow chaos: ${INVOKERS} invoking parents + ${FLOWS} flow parents, ${report.kills} worker SIGKILLs (held running: ${report.killed.map((k) => `${k.parents} parents/${k.children} children`).join(', ')}), ${report.elapsedMs} ms, ${report.late.length} children seen late (${report.late.filter((l) => l.cause !== undefined).length} explained by a kill): ${JSON.stringify(counts)} states ${JSON.stringify(report.states)}`;
  console.log(summary);
  const late = report.late
    .slice(0, 10)
    .map(({ parentAttempts, ...rest }) =>
      rest.cause === undefined ? { ...rest, parentAttempts } : rest,
    );
  if (late.length > 0)
    console.log(`flow chaos: children seen late (by the poll; first 10): ${JSON.stringify(late)}`);
  if (report.problems.length > 0) {
    console.log(`flow chaos problems (first 10): ${JSON.stringify(report.problems, null, 1)}`);
  }
  expect(counts, summary).toEqual({
    timedOut: false,
    kills: 3,
    parents: INVOKERS + FLOWS,
    children: (INVOKERS + FLOWS) * 3,
    missing: 0,
    wrong: 0,
    twice: 0,
    childMissing: 0,
    badChildId: 0,
    childNotCompleted: 0,
    orphans: 0,
    lostWakes: 0,
  });
}, 120_000);

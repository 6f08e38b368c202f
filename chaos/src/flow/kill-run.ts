import type { ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { type AttemptRecord, createClient, type JobRecord, type StepRecord } from '@berth/core';
import { createPgDriver } from '@berth/driver-pg';
import pg from 'pg';
import { killableWorkers } from '../child/killable-workers.ts';
import {
  expectedFlowSum,
  expectedInvokeSum,
  FLOW_CHILD_QUEUE,
  FLOW_CHILDREN,
  FLOW_PARENT_QUEUE,
  type FlowChildPayload,
  type FlowParentResult,
  flowInput,
  flowJobs,
  INVOKE_STEPS,
} from './jobs.ts';

const WORKER = new URL('../child/flow-main.ts', import.meta.url);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long a kill looks for a worker mid-way through a parent's attempt before taking any holder. */
const PARENT_HUNT_MS = 2_000;

export interface FlowKillOptions {
  readonly pgUrl: string;
  /** Parents that each `step.invoke` three children. */
  readonly invokers: number;
  /** Parents enqueued by `client.enqueueFlow` with three children each, read by `step.children`. */
  readonly flows: number;
  /** Each child's work, ms. */
  readonly workMs: number;
  /** Worker processes alive at once (a killed one is replaced). */
  readonly workers: number;
  readonly concurrency: number;
  /** SIGKILLs, spread over the run: one each time another share of the children completed. */
  readonly kills: number;
  /** The workers' `eventPollMs`: a parked parent's look again when no wake came. */
  readonly eventPollMs: number;
  /** A parent that saw a child settled this long after it did missed a wake (see `late`). */
  readonly lateMs: number;
  /** Gives up past this, ms. */
  readonly deadlineMs: number;
}

/** One parent the check found wrong, with what a reader needs to trace it. */
export interface FlowProblem {
  readonly kind: string;
  readonly parent: string;
  readonly runId: string;
  readonly state: string;
  readonly result: unknown;
  readonly expected: number;
  readonly children: readonly { id: string; step: string; state: string; claim: number }[];
  readonly steps: readonly Pick<StepRecord, 'name' | 'status' | 'output' | 'attempts'>[];
}

export interface LateParent {
  readonly parent: string;
  readonly wokeAfterMs: number;
  readonly child: string;
  readonly childWorker: string;
  /** ms from the child's settle to the SIGKILL of its worker, when the run killed it. */
  readonly childWorkerKilledAfterMs: number | undefined;
  readonly parentAttempts: readonly AttemptRecord[];
  /**
   * Why the wake did not come: `child worker killed` (within KILL_AFTER_SETTLE_MS of the settle,
   * so maybe before its announcement), `parent attempt lapsed` (the parent was running on a
   * killed worker when the child settled: no suspended row to wake), else undefined: a lost
   * wake no kill explains (a bug).
   */
  readonly cause: 'child worker killed' | 'parent attempt lapsed' | undefined;
}

export interface FlowKillReport {
  readonly kills: number;
  /** Each kill: what the victim held running (parents, children). */
  readonly killed: readonly { pid: number; at: number; parents: number; children: number }[];
  /**
   * Children a parent saw settled more than `lateMs` after they did: a wake that did not come
   * (the parent's look every `eventPollMs` found the child instead), with the worker that
   * completed the child and whether it was one the run SIGKILLed (how long after the settle).
   */
  readonly late: readonly LateParent[];
  readonly parents: number;
  readonly children: number;
  /** Parents not `completed` at the end. */
  readonly missing: number;
  /** Parents completed with a sum other than their children's. */
  readonly wrong: number;
  /** Children enqueued more than once for one (parent, step), counted once per extra job. */
  readonly twice: number;
  /** (parent, step) pairs with no child job. */
  readonly childMissing: number;
  /** Invoked children whose id is not the one derived from the parent's run and step. */
  readonly badChildId: number;
  /** Children not `completed` at the end. */
  readonly childNotCompleted: number;
  /** Children whose parent is not one of the run's parents. */
  readonly orphans: number;
  /** Jobs by state at the end, over both queues. */
  readonly states: Readonly<Record<string, number>>;
  readonly problems: readonly FlowProblem[];
  readonly elapsedMs: number;
  readonly timedOut: boolean;
}

/** The child id `step.invoke(step)` makes in run `runId` (core's `invokedChildId`, rederived). */
function invokedChildId(runId: string, step: string): string {
  const hex = createHash('sha256').update(`${runId}\n${step}`).digest('hex');
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Flows through SIGKILLed worker processes on PostgreSQL: `invokers` parents each `step.invoke`
 * three children (one, then two side by side) and `flows` parents enqueued by `enqueueFlow` with
 * three children each, read by `step.children`. One worker holding a running job is SIGKILLed
 * (and replaced) each time another 1/(kills+1) of the children completed. Once every parent
 * settled (or the deadline passed), the stored jobs are checked: every parent completed with its
 * children's sum, exactly one child per (parent, step), every child completed.
 */
export async function runFlowKill(options: FlowKillOptions): Promise<FlowKillReport> {
  const schema = `chaos_flow_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const pool = new pg.Pool({ connectionString: options.pgUrl, max: 4 });
  const driver = createPgDriver({ pool, schema });
  const workers = killableWorkers(WORKER, {
    pgUrl: options.pgUrl,
    schema,
    workMs: options.workMs,
    concurrency: options.concurrency,
    eventPollMs: options.eventPollMs,
  });
  const listAll = async (queue: string): Promise<JobRecord[]> => {
    const jobs: JobRecord[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await driver.list({
        queue,
        limit: 500,
        ...(after === undefined ? {} : { after }),
      });
      jobs.push(...page.jobs);
      if (page.next === undefined) return jobs;
      after = page.next;
    }
  };
  const findVictim = async (until: number) => {
    for (;;) {
      const running = (
        await Promise.all(
          [FLOW_PARENT_QUEUE, FLOW_CHILD_QUEUE].map((queue) =>
            driver.list({ queue, state: 'running', limit: 200 }),
          ),
        )
      ).flatMap((page) => page.jobs);
      const held = (worker: ChildProcess, queue: string) =>
        running.filter((job) => job.claimedBy === `flow-${worker.pid}` && job.queue === queue)
          .length;
      const candidates = [...workers.alive]
        .filter((worker) => worker.exitCode === null && worker.signalCode === null)
        .map((worker) => ({
          worker,
          parents: held(worker, FLOW_PARENT_QUEUE),
          children: held(worker, FLOW_CHILD_QUEUE),
        }))
        .filter((c) => c.parents + c.children > 0)
        .sort((x, y) => y.parents - x.parents || y.children - x.children);
      const best = candidates[0];
      if (best !== undefined && (best.parents > 0 || Date.now() > until)) return best;
      if (best === undefined && Date.now() > until) return undefined;
      await sleep(5);
    }
  };
  const began = performance.now();
  try {
    await pool.query(`CREATE SCHEMA "${schema}"`);
    await driver.migrate();
    const client = createClient({ driver });
    const { child, invoker, flowParent } = flowJobs(options.workMs);
    const expected = new Map<string, number>();
    const kindOf = new Map<string, 'invoker' | 'flow'>();
    for (let at = 0; at < options.invokers; at += 50) {
      const numbers = Array.from({ length: Math.min(50, options.invokers - at) }, (_, k) => at + k);
      const answers = await client.enqueueMany(
        numbers.map((parent) => ({ job: invoker, payload: { parent } })),
      );
      answers.forEach((answer, k) => {
        expected.set(answer.id, expectedInvokeSum(numbers[k] ?? -1));
        kindOf.set(answer.id, 'invoker');
      });
    }
    const flowChildren = new Map<string, string[]>();
    for (let parent = 0; parent < options.flows; parent += 1) {
      const flow = await client.enqueueFlow({
        job: flowParent,
        payload: { parent },
        children: Array.from({ length: FLOW_CHILDREN }, (_, k) => ({
          job: child,
          payload: { parent, step: `flow-${k}`, n: flowInput(parent, k) },
        })),
      });
      expected.set(flow.parent.id, expectedFlowSum(parent));
      kindOf.set(flow.parent.id, 'flow');
      flowChildren.set(
        flow.parent.id,
        flow.children.map((c) => c.id),
      );
    }
    const childTotal = (options.invokers + options.flows) * 3;
    for (let n = 0; n < options.workers; n += 1) workers.spawn();

    let kills = 0;
    const killed: { pid: number; at: number; parents: number; children: number }[] = [];
    let timedOut = false;
    const deadline = Date.now() + options.deadlineMs;
    for (;;) {
      const stats = await driver.stats();
      const countsOf = (queue: string) => stats.find((s) => s.queue === queue)?.counts;
      const parentsLeft =
        options.invokers +
        options.flows -
        ((countsOf(FLOW_PARENT_QUEUE)?.completed ?? 0) +
          (countsOf(FLOW_PARENT_QUEUE)?.failed ?? 0) +
          (countsOf(FLOW_PARENT_QUEUE)?.dead ?? 0) +
          (countsOf(FLOW_PARENT_QUEUE)?.cancelled ?? 0));
      if (parentsLeft <= 0) break;
      if (Date.now() > deadline) {
        timedOut = true;
        break;
      }
      const childrenDone = countsOf(FLOW_CHILD_QUEUE)?.completed ?? 0;
      const share = childTotal / (options.kills + 1);
      if (kills < options.kills && childrenDone >= share * (kills + 1)) {
        // The victim: a process running a parent's attempt right now (an invoke between its
        // child's enqueue and its park, a wake reading its children), looked for up to
        // PARENT_HUNT_MS; else one running a child.
        const victim = await findVictim(Date.now() + PARENT_HUNT_MS);
        if (victim !== undefined) {
          victim.worker.kill('SIGKILL');
          kills += 1;
          killed.push({
            pid: victim.worker.pid ?? -1,
            at: Date.now(),
            parents: victim.parents,
            children: victim.children,
          });
          workers.spawn();
        }
      }
      await sleep(50);
    }

    // The stored jobs, checked.
    const parents = await listAll(FLOW_PARENT_QUEUE);
    const children = await listAll(FLOW_CHILD_QUEUE);
    const states: Record<string, number> = {};
    for (const job of [...parents, ...children]) states[job.state] = (states[job.state] ?? 0) + 1;
    const byParent = new Map<string, JobRecord[]>();
    let orphans = 0;
    for (const job of children) {
      if (job.parentId === undefined || !expected.has(job.parentId)) {
        orphans += 1;
        continue;
      }
      const list = byParent.get(job.parentId) ?? [];
      list.push(job);
      byParent.set(job.parentId, list);
    }
    let missing = 0;
    let wrong = 0;
    let twice = 0;
    let childMissing = 0;
    let badChildId = 0;
    const childNotCompleted = children.filter((job) => job.state !== 'completed').length;
    const suspects: { job: JobRecord | undefined; id: string; kind: string }[] = [];
    const seenParents = new Set(parents.map((job) => job.id));
    for (const id of expected.keys()) {
      if (!seenParents.has(id)) suspects.push({ job: undefined, id, kind: 'parent not stored' });
    }
    for (const parent of parents) {
      const want = expected.get(parent.id);
      if (want === undefined) continue;
      const kind = kindOf.get(parent.id);
      const mine = byParent.get(parent.id) ?? [];
      const steps =
        kind === 'invoker'
          ? [...INVOKE_STEPS]
          : Array.from({ length: FLOW_CHILDREN }, (_, k) => `flow-${k}`);
      let flaw: string | undefined;
      for (const step of steps) {
        const made = mine.filter(
          (job) => (job.payload as unknown as FlowChildPayload).step === step,
        );
        if (made.length === 0) {
          childMissing += 1;
          flaw ??= `no child for step ${step}`;
        }
        if (made.length > 1) {
          twice += made.length - 1;
          flaw ??= `${made.length} children for step ${step}`;
        }
        if (kind === 'invoker') {
          for (const job of made) {
            if (job.id !== invokedChildId(parent.runId, step)) {
              badChildId += 1;
              flaw ??= `child ${job.id} of step ${step} is not the derived id`;
            }
          }
        }
      }
      if (kind === 'flow') {
        const ids = flowChildren.get(parent.id) ?? [];
        if (mine.length !== ids.length || mine.some((job) => !ids.includes(job.id))) {
          flaw ??= 'children differ from the flow enqueued';
        }
      }
      if (mine.some((job) => job.state !== 'completed')) flaw ??= 'a child not completed';
      if (parent.state !== 'completed') {
        missing += 1;
        flaw = `parent ${parent.state}`;
      } else {
        const result = parent.result as unknown as FlowParentResult | undefined;
        if (result?.sum !== want || result.notCompleted !== 0) {
          wrong += 1;
          flaw = `wrong sum ${JSON.stringify(parent.result)}, expected ${want}`;
        }
      }
      if (flaw !== undefined) suspects.push({ job: parent, id: parent.id, kind: flaw });
    }
    missing += suspects.filter((s) => s.job === undefined).length;
    // How long each parent took to see each child settled: the step memoizing the child's
    // outcome is written when the parent first reads it settled.
    const late: LateParent[] = [];
    for (const parent of parents) {
      const steps = new Map((await driver.steps.list(parent.runId)).map((r) => [r.name, r]));
      for (const child of byParent.get(parent.id) ?? []) {
        const step = (child.payload as unknown as FlowChildPayload).step;
        const memo = steps.get(
          kindOf.get(parent.id) === 'invoker' ? step : `berth.child ${child.id}`,
        );
        if (memo?.status !== 'completed' || child.finishedAt === undefined) continue;
        const wokeAfterMs = memo.updatedAt - child.finishedAt;
        if (wokeAfterMs < options.lateMs) continue;
        const history = await driver.attempts.list(child.id);
        const settle = history?.records.find((r) => r.outcome === 'completed');
        const childWorker = settle?.workerId ?? '?';
        const kill = killed.find((k) => childWorker === `flow-${k.pid}`);
        const killedAfterMs = kill === undefined ? undefined : kill.at - child.finishedAt;
        const parentAttempts = (await driver.attempts.list(parent.id))?.records ?? [];
        const finished = child.finishedAt;
        const cause =
          // Killed after the settle and before the parent's late look: the kill may have landed
          // between the settle and its announcement, and the parent then learns of the child by
          // its look every `eventPollMs`, by design. A worker that lived on announced it.
          killedAfterMs !== undefined && killedAfterMs > -50 && killedAfterMs < wokeAfterMs
            ? 'child worker killed'
            : parentAttempts.some(
                  (r) => r.outcome === 'lapsed' && r.claimedAt <= finished && r.endedAt >= finished,
                )
              ? 'parent attempt lapsed'
              : undefined;
        late.push({
          parent: parent.id,
          wokeAfterMs,
          child: child.id,
          childWorker,
          childWorkerKilledAfterMs: killedAfterMs,
          parentAttempts,
          cause,
        });
      }
    }
    const problems: FlowProblem[] = [];
    for (const suspect of suspects.slice(0, 10)) {
      const job = suspect.job;
      const steps = job === undefined ? [] : await driver.steps.list(job.runId);
      problems.push({
        kind: suspect.kind,
        parent: suspect.id,
        runId: job?.runId ?? '',
        state: job?.state ?? 'absent',
        result: job?.result,
        expected: expected.get(suspect.id) ?? -1,
        children: (byParent.get(suspect.id) ?? []).map((c) => ({
          id: c.id,
          step: (c.payload as unknown as FlowChildPayload).step,
          state: c.state,
          claim: c.claim,
        })),
        steps: steps.map(({ name, status, output, attempts }) => ({
          name,
          status,
          attempts,
          ...(output === undefined ? {} : { output }),
        })),
      });
    }
    return {
      kills,
      killed,
      late,
      parents: parents.length,
      children: children.length,
      missing,
      wrong,
      twice,
      childMissing,
      badChildId,
      childNotCompleted,
      orphans,
      states,
      problems,
      elapsedMs: Math.round(performance.now() - began),
      timedOut,
    };
  } finally {
    workers.killAll();
    await driver.close().catch(() => {});
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await pool.end();
  }
}

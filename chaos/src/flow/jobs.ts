import { setTimeout as sleep } from 'node:timers/promises';
import { defineJob } from '@berth/core';

export const FLOW_PARENT_QUEUE = 'flow-parents';
export const FLOW_CHILD_QUEUE = 'flow-children';
/** Kills must never exhaust a job: a dead letter would hide a loss. */
const RETRY = {
  maxAttempts: 1_000,
  backoff: { initialMs: 50, factor: 1, maxMs: 50, jitter: 0 },
} as const;

/** A child: which parent (the run's own number) and which of its steps made it, and its input. */
export interface FlowChildPayload {
  readonly parent: number;
  readonly step: string;
  readonly n: number;
}

/** What a child answers for input `n`: not symmetric in the inputs, so a swapped answer shows. */
export const childValue = (n: number): number => n * n + 1;

/** The steps an invoking parent runs, and the inputs it gives them: `a` alone, then `b` and `c` side by side. */
export const INVOKE_STEPS = ['a', 'b', 'c'] as const;
export const invokeInput = (parent: number, step: number): number => parent * 3 + step + 1;
/** The inputs of flow parent `parent`'s children (enqueueFlow), in the flow's order. */
export const FLOW_CHILDREN = 3;
export const flowInput = (parent: number, child: number): number => 100_000 + parent * 3 + child;

export const expectedInvokeSum = (parent: number): number =>
  INVOKE_STEPS.reduce((sum, _, k) => sum + childValue(invokeInput(parent, k)), 0);
export const expectedFlowSum = (parent: number): number =>
  Array.from({ length: FLOW_CHILDREN }, (_, k) => childValue(flowInput(parent, k))).reduce(
    (sum, value) => sum + value,
    0,
  );

export interface FlowParentResult {
  readonly sum: number;
  /** Children the parent saw settle other than `completed` (a flow parent with `onFailure: continue` would). */
  readonly notCompleted: number;
}

/** The flow chaos run's jobs; `workMs` is each child's work (kills land while children run). */
export function flowJobs(workMs: number) {
  const child = defineJob<FlowChildPayload>()({
    name: 'chaos.flow.child',
    queue: FLOW_CHILD_QUEUE,
    retry: RETRY,
    run: async ({ payload }) => {
      await sleep(workMs);
      return { value: childValue(payload.n) };
    },
  });
  // Three children by step.invoke: `a` first, then `b` and `c` side by side.
  const invoker = defineJob<{ readonly parent: number }>()({
    name: 'chaos.flow.invoker',
    queue: FLOW_PARENT_QUEUE,
    retry: RETRY,
    run: async ({ payload, step }): Promise<FlowParentResult> => {
      const [a, b, c] = INVOKE_STEPS;
      const first = await step.invoke(a, child, {
        parent: payload.parent,
        step: a,
        n: invokeInput(payload.parent, 0),
      });
      const [second, third] = await Promise.all([
        step.invoke(b, child, {
          parent: payload.parent,
          step: b,
          n: invokeInput(payload.parent, 1),
        }),
        step.invoke(c, child, {
          parent: payload.parent,
          step: c,
          n: invokeInput(payload.parent, 2),
        }),
      ]);
      return { sum: first.value + second.value + third.value, notCompleted: 0 };
    },
  });
  // Its children come from client.enqueueFlow; it reads them with step.children.
  const flowParent = defineJob<{ readonly parent: number }>()({
    name: 'chaos.flow.parent',
    queue: FLOW_PARENT_QUEUE,
    retry: RETRY,
    run: async ({ step }): Promise<FlowParentResult> => {
      const outcomes = await step.children(child);
      let sum = 0;
      let notCompleted = 0;
      for (const outcome of outcomes) {
        if (outcome.state === 'completed') sum += outcome.result.value;
        else notCompleted += 1;
      }
      return { sum, notCompleted };
    },
  });
  return { child, invoker, flowParent };
}

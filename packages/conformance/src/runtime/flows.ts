import { createClient, defineJob, isBerthError, NonRetryableError } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveToState, outcomeOf } from './drive.js';
import { withWorker } from './harness.js';

const render = defineJob<{ page: number }>()({
  name: 'render',
  queue: 'pages',
  run: ({ payload }) => `page ${payload.page}`,
});
const refuse = defineJob<{ why: string }>()({
  name: 'refuse',
  run: ({ payload }) => {
    throw new NonRetryableError(payload.why);
  },
});

export const flowParentReadsChildren: GoldenScenario = {
  name: 'flow-parent-reads-children',
  asserts:
    'a flow enqueued as one batch (a parent, two children in another queue, a failing child with onFailure continue): the parent parks until every child settled, then reads their outcomes in the flow order; each child names the parent',
  async play(context) {
    const { driver, clock, note } = context;
    const book = defineJob<{ title: string }>()({
      name: 'book',
      run: async ({ step }) =>
        (await step.children()).map((child) =>
          child.state === 'completed' ? child.result : `${child.state}: ${child.error?.message}`,
        ),
    });
    const flow = await createClient({ driver }).enqueueFlow({
      job: book,
      payload: { title: 'Atlas' },
      children: [
        { job: render, payload: { page: 1 } },
        { job: render, payload: { page: 2 } },
        { job: refuse, payload: { why: 'no ink' }, onFailure: 'continue' },
      ],
    });
    await withWorker(
      context,
      [book, render, refuse],
      async () => {
        note(
          'parent settled',
          outcomeOf(await driveToState(driver, clock, flow.parent.id, 'completed')),
        );
      },
      { concurrency: 2 },
    );
    for (const [index, child] of flow.children.entries()) {
      const record = await driver.get(child.id);
      note(`child ${index + 1}`, {
        ...outcomeOf(record),
        queue: record?.queue,
        namesParent: record?.parentId === flow.parent.id,
      });
    }
  },
};

export const invokeAnswersChild: GoldenScenario = {
  name: 'invoke-answers-child',
  asserts:
    "step.invoke runs a child and answers its result; a failed child's JOB_FAILED caught by the parent; the parent retried after both meets the same children (each ran once)",
  async play(context) {
    const { driver, clock, note } = context;
    let parentRuns = 0;
    const parent = defineJob<{ page: number }>()({
      name: 'parent',
      retry: { maxAttempts: 2, backoff: { initialMs: 100, jitter: 0 } },
      run: async ({ payload, step }) => {
        const rendered = await step.invoke('render', render, { page: payload.page });
        const refused = await step
          .invoke('refuse', refuse, { why: 'closed' })
          .catch((error: unknown) => {
            // Only the child's failure: the run's own suspension must go through.
            if (isBerthError(error, 'JOB_FAILED')) return `${error.code} ${error.meta.state}`;
            throw error;
          });
        parentRuns += 1;
        if (parentRuns === 1) throw new Error('the parent fails once after its children');
        return [rendered, refused];
      },
    });
    const { id } = await createClient({ driver }).enqueue(parent, { page: 9 });
    await withWorker(
      context,
      [parent, render, refuse],
      async () => {
        note('parent settled', outcomeOf(await driveToState(driver, clock, id, 'completed')));
      },
      { concurrency: 2 },
    );
    const children = (await driver.list()).jobs.filter((job) => job.parentId === id);
    note(
      'children',
      children
        .map((child) => outcomeOf(child))
        .sort((a, b) => String(a?.name).localeCompare(String(b?.name))),
    );
  },
};

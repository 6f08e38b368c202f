import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type ChildOutcome,
  type Client,
  defineJob,
  type FlowEnqueued,
  type Json,
} from '../src/index.js';

const resize = defineJob({
  name: 'resize',
  schema: z.object({ url: z.string(), width: z.number().default(640) }),
  run: ({ payload }) => ({ resized: payload.url, width: payload.width }),
});
const notify = defineJob<{ to: string }>()({ name: 'notify', run: () => true });

describe('flow types follow the jobs', () => {
  it("step.invoke answers the child's result and takes its input; step.children(job) types results", () => {
    defineJob<{ url: string }>()({
      name: 'gallery',
      run: async ({ payload, step }) => {
        const made = await step.invoke('resize', resize, { url: payload.url });
        expectTypeOf(made).toEqualTypeOf<{ resized: string; width: number }>();
        // @ts-expect-error: the child's input needs a url
        await step.invoke('bad', resize, { width: 1 });
        expectTypeOf(await step.children(resize)).toEqualTypeOf<
          readonly ChildOutcome<{ resized: string; width: number }>[]
        >();
        expectTypeOf(await step.children()).toEqualTypeOf<readonly ChildOutcome<Json>[]>();
        return made.width;
      },
    });
  });

  it('enqueueFlow checks each child payload against its own job', () => {
    const flow = (client: Client) =>
      client.enqueueFlow({
        job: notify,
        payload: { to: 'ops' },
        children: [
          { job: resize, payload: { url: '/a.png' }, onFailure: 'continue' },
          { job: notify, payload: { to: 'me' } },
        ],
      });
    expectTypeOf(flow).returns.toEqualTypeOf<Promise<FlowEnqueued>>();
    const wrong = (client: Client) =>
      client.enqueueFlow({
        job: notify,
        payload: { to: 'ops' },
        // @ts-expect-error: a notify payload given to the resize child
        children: [{ job: resize, payload: { to: 'me' } }],
      });
    expectTypeOf(wrong).toBeFunction();
  });
});

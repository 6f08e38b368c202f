import { createMemoryDriver } from '@berth/driver-memory';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type Client,
  createClient,
  createWorker,
  defineJob,
  type JobResultOf,
  type Json,
} from '../src/index.js';
import { readmeExampleTypeErrors, runReadmeExample } from './support/readme-example.js';

const welcome = defineJob<{ userId: string }>()({
  name: 'user.welcome',
  run: ({ payload }) => ({ sentTo: `${payload.userId}@example.com` }),
});
const spelled = defineJob<{ userId: string }>({
  name: 'user.welcome.spelled',
  run: ({ payload }) => ({ sentTo: payload.userId }),
});

// Compiled by `pnpm typecheck`, never run.
async function compileOnly(client: Client) {
  expectTypeOf<JobResultOf<typeof welcome>>().toEqualTypeOf<{ sentTo: string }>();
  expectTypeOf((await client.enqueueAndWait(welcome, { userId: 'u' })).sentTo).toBeString();
  // @ts-expect-error the payload is still the one given
  await client.enqueue(welcome, { user: 'u' });
  // With the payload given in the same call, TypeScript infers nothing more: the result is JSON.
  expectTypeOf<JobResultOf<typeof spelled>>().toEqualTypeOf<Json | undefined>();
  // @ts-expect-error a result that is not JSON does not compile
  defineJob<{ when: string }>()({ name: 'x', run: () => ({ at: new Date() }) });
}

describe('defineJob<TPayload>()', () => {
  it('types the payload and infers the result, and defines the same job defineJob does', async () => {
    void compileOnly;
    expect(welcome).toMatchObject({ name: 'user.welcome', queue: 'default' });
    const driver = createMemoryDriver();
    const worker = createWorker({
      driver,
      jobs: [welcome],
      concurrency: 1,
      visibilityTimeoutMs: 30_000,
    });
    await worker.start();
    const client = createClient({ driver, jobs: [welcome] });
    expect(await client.enqueueAndWait(welcome, { userId: 'u-2' })).toEqual({
      sentTo: 'u-2@example.com',
    });
    await worker.stop();
    await driver.close();
  });

  it('refuses bad options as defineJob does', () => {
    expect(() => defineJob<{ a: 1 }>()({ name: '', run: () => {} })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });

  it('the README example runs as written and type-checks', async () => {
    const { imports, printed } = await runReadmeExample('typed-payload-example', {
      createClient,
      createWorker,
      defineJob,
      createMemoryDriver,
    });
    expect(imports).toBe(2);
    expect(printed).toEqual([['u-1@example.com']]);
    expect(
      readmeExampleTypeErrors('typed-payload-example', 'readme-typed-payload.snippet.ts'),
    ).toEqual([]);
  }, 60_000);
});

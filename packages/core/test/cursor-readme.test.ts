import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import { runReadmeExample } from './support/readme-example.js';

it('the README cursor example runs as written: a cursor walks its own list and no other', async () => {
  const { imports, printed } = await runReadmeExample('cursor-example', { createMemoryDriver });
  expect(imports).toBe(1);
  expect(printed).toEqual([[1], ['JOB_PAGE_INVALID']]);
});

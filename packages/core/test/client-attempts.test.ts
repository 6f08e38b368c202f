import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import { createClient, defineJob, isBerthError } from '../src/index.js';

const task = defineJob({ name: 'task', run: () => 'done' });

it('client.attempts and a handle answer the driver history; an unknown id or another tenant is JOB_NOT_FOUND', async () => {
  const driver = createMemoryDriver();
  const client = createClient({ driver, jobs: [task] });
  const { id } = await client.enqueue(task, {}, { tenantId: 'acme' });
  expect(await client.attempts(id)).toEqual({ records: [], dropped: 0 });
  const [claimed] = await driver.claim({
    queues: ['default'],
    workerId: 'w1',
    visibilityTimeoutMs: 1_000,
  });
  if (claimed === undefined) throw new Error('expected a claim');
  await driver.ack({ jobId: id, workerId: 'w1', claim: claimed.claim });
  const history = await client.attempts(id, { tenantId: 'acme' });
  expect(history.records.map((record) => [record.outcome, record.workerId])).toEqual([
    ['completed', 'w1'],
  ]);
  expect(await client.handle(task, id).attempts()).toEqual(history);
  const refused = await client.attempts(id, { tenantId: 'globex' }).catch((error) => error);
  expect(isBerthError(refused, 'JOB_NOT_FOUND')).toBe(true);
  const unknown = await client
    .attempts('7b0c8f0e-0000-4000-8000-000000000000')
    .catch((error) => error);
  expect(isBerthError(unknown, 'JOB_NOT_FOUND')).toBe(true);
  await driver.close();
});

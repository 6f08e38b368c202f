import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { openPgDriver } from './pg-factory.js';

/** The kit's case covers the single enqueue and the plain batch; these statements are pg's own. */
it('parentId lands through the keyed batch and the mark-advancing enqueue, and a requeue keeps it', async () => {
  const { driver, dispose } = await openPgDriver();
  try {
    const parentId = randomUUID();
    const [keyed, plain] = await driver.enqueueMany([
      { name: 'child', idempotencyKey: 'k', parentId },
      { name: 'child', id: randomUUID() },
    ]);
    const marked = await driver.enqueue({
      name: 'child',
      id: randomUUID(),
      parentId,
      advanceMark: { name: 'slot', value: 1 },
    });
    if (!('id' in marked)) throw new Error('expected the marked enqueue to land');
    expect((await driver.get(String(keyed?.id)))?.parentId).toBe(parentId);
    expect(await driver.get(String(plain?.id))).not.toHaveProperty('parentId');
    expect((await driver.get(marked.id))?.parentId).toBe(parentId);

    expect((await driver.cancel(marked.id)).parentId).toBe(parentId);
    expect((await driver.requeue(marked.id)).parentId).toBe(parentId);
  } finally {
    await dispose();
  }
});

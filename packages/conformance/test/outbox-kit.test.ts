import { describe, expect, it } from 'vitest';
import { describeOutboxStore, outboxStoreCases } from '../src/index.js';
import { memoryOutbox } from './memory-outbox.js';

describeOutboxStore('memory (the kit’s own reference)', async () => memoryOutbox());

/** The titles of the cases `outbox` fails. */
async function failing(make: () => ReturnType<typeof memoryOutbox>): Promise<string[]> {
  const failed: string[] = [];
  for (const kitCase of outboxStoreCases) {
    const outbox = make();
    try {
      await kitCase.run(outbox);
    } catch {
      failed.push(kitCase.title);
    } finally {
      await outbox.dispose();
    }
  }
  return failed;
}

describe('the outbox store kit refuses broken stores', () => {
  it('fails a store whose take hands out rows another batch holds', async () => {
    const failed = await failing(() => memoryOutbox({ takeHeld: true }));
    expect(failed.some((title) => title.startsWith('rows a batch holds'))).toBe(true);
    expect(failed.some((title) => title.startsWith('two relays taking at once'))).toBe(true);
  });

  it('fails a store whose take hands out dead rows again', async () => {
    const failed = await failing(() => memoryOutbox({ deadTakenAgain: true }));
    expect(failed.some((title) => title.startsWith('finish: relayed rows leave'))).toBe(true);
  });
});

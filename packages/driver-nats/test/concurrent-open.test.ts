import { serverUrl } from '@berth/test-servers';
import { describe, expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { dropPrefix, freshPrefix } from './nats-factory.js';

const PROCESSES = 12;
const ROUNDS = 40;

/**
 * Processes opening a fresh prefix at the same moment each try to make its two streams; the
 * server may answer all but one "subjects overlap with an existing stream" (10065) while the one
 * it is making settles. That is the bucket being made, not a fault: every first call answers.
 */
describe('processes opening one fresh prefix at the same moment on one server', () => {
  it('all answer their first call, round after round', async () => {
    const url = await serverUrl('nats');
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const prefix = freshPrefix();
      const drivers = Array.from({ length: PROCESSES }, () =>
        createNatsDriver({ servers: url, prefix }),
      );
      try {
        const answers = await Promise.allSettled(
          drivers.map((driver) => driver.enqueue({ name: 'open', queue: 'race' })),
        );
        for (const answer of answers) {
          if (answer.status === 'rejected') failures.push(String(answer.reason));
        }
      } finally {
        await Promise.all(drivers.map((driver) => driver.close()));
        await dropPrefix(url, prefix);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

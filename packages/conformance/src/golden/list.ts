import type { ListPage } from '@berth/core';
import type { GoldenScenario } from './transcript.js';

/** The page by ids: the records themselves are other scenarios' business. */
const byIds = (page: ListPage) => ({ ...page, jobs: page.jobs.map((job) => job.id) });

/** Shaped like a cursor, signed by nobody. */
const FORGED = 'c1.MTc2NzIyNTYwMDAwMDox.AAAAAAAAAAAAAAAA';

export const pagination: GoldenScenario = {
  name: 'pagination',
  asserts:
    'list walks newest first by (createdAt, insertion order), forward by next and back by prev, and refuses a forged cursor',
  async play({ driver, answer, refusal, advance }) {
    const enqueue = (n: number) =>
      answer(`enqueue page ${n}`, () => driver.enqueue({ name: 'page', payload: { n } }));
    await enqueue(1);
    await enqueue(2);
    await advance(1_000);
    await enqueue(3);
    await enqueue(4);
    await advance(1_000);
    await enqueue(5);
    await advance(1_000);
    await enqueue(6);
    await enqueue(7);
    const walk = (op: string, side?: 'after' | 'before', cursor?: string) =>
      answer(
        op,
        () =>
          driver.list(
            side === undefined || cursor === undefined
              ? { limit: 3 }
              : { limit: 3, [side]: cursor },
          ),
        byIds,
      );
    const first = await walk('list limit 3');
    const second = await walk('list limit 3 after page 1', 'after', first.next);
    const third = await walk('list limit 3 after page 2', 'after', second.next);
    const back = await walk('list limit 3 before page 3', 'before', third.prev);
    await walk('list limit 3 before that', 'before', back.prev);
    await refusal('list after a forged cursor', () => driver.list({ after: FORGED }));
    await refusal('list limit 501', () => driver.list({ limit: 501 }));
  },
};

import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import { startRun } from './backfills.js';

/** Siblings (two processes of one deployment) racing the same ledger change: one wins. */
export const backfillRaceCases: readonly KitCase[] = [
  {
    title:
      'two instances starting the same name at once: exactly one run starts, the other answers it as the active run',
    run: async ({ driver, sibling }) => {
      const other = await sibling();
      const request = () => ({ runId: randomUUID(), jobId: randomUUID(), name: 'n' });
      const answers = await Promise.all([
        driver.backfills.start(request()),
        other.backfills.start(request()),
        driver.backfills.start(request()),
        other.backfills.start(request()),
      ]);
      const started = answers.flatMap((answer) => (answer.started ? [answer.run] : []));
      expect(started.length).toBe(1);
      for (const answer of answers) {
        if (!answer.started) expect(answer.active).toEqual(started);
      }
      expect(await driver.backfills.list({ name: 'n' })).toEqual(started);
    },
  },
  {
    title:
      'two instances committing the same pass at once: exactly one lands, and the rows are counted once',
    run: async ({ driver, sibling }) => {
      const other = await sibling();
      const run = await startRun(driver, 'n');
      const pass = { jobId: run.jobId, passes: 0, next: { after: 50 }, rows: 50 };
      const answers = await Promise.all([
        driver.backfills.commit(run.runId, pass),
        other.backfills.commit(run.runId, pass),
        driver.backfills.commit(run.runId, pass),
        other.backfills.commit(run.runId, pass),
      ]);
      expect(answers.filter((answer) => answer?.changed).length).toBe(1);
      expect(await other.backfills.get(run.runId)).toMatchObject({ passes: 1, rowsDone: 50 });
    },
  },
  {
    title:
      'a pause racing a commit: whichever lands first, the pass is counted once and the run ends paused',
    run: async ({ driver, sibling }) => {
      const other = await sibling();
      const run = await startRun(driver, 'n');
      const pass = { jobId: run.jobId, passes: 0, next: 'k', rows: 7 };
      const [committed] = await Promise.all([
        driver.backfills.commit(run.runId, pass),
        other.backfills.transition(run.runId, { from: ['running'], to: 'paused' }),
      ]);
      expect(committed?.changed).toBe(true);
      expect(await driver.backfills.get(run.runId)).toMatchObject({
        status: 'paused',
        passes: 1,
        rowsDone: 7,
        cursor: 'k',
      });
    },
  },
];

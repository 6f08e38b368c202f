import type { GoldenScenario } from './transcript.js';

const RUN_A = '0b0f11aa-0000-4000-8000-00000000000a';
const RUN_B = '0b0f11aa-0000-4000-8000-00000000000b';
const JOB_A = '0b0f11aa-0000-4000-8000-0000000000a1';
const JOB_A2 = '0b0f11aa-0000-4000-8000-0000000000a2';
const JOB_B = '0b0f11aa-0000-4000-8000-0000000000b1';

export const backfillLedger: GoldenScenario = {
  name: 'backfill-ledger',
  asserts:
    'a run starts running with no pass; a retried start answers it; a second start of the name is refused with the active run; commits count each pass once and a stale pass or runner lands nothing; a pause keeps the pass in flight; a resume hands the run to a new job; a null next completes it; a final run moves no more; another tenant sees nothing',
  async play({ driver, answer, advance }) {
    const startA = { runId: RUN_A, jobId: JOB_A, name: 'reindex', cursor: { after: 0 } };
    await answer('start reindex', () => driver.backfills.start(startA));
    await advance(1_000);
    await answer('start reindex again (a retried lost answer)', () =>
      driver.backfills.start(startA),
    );
    await answer('start reindex as a second run', () =>
      driver.backfills.start({ runId: RUN_B, jobId: JOB_B, name: 'reindex' }),
    );
    const pass = (jobId: string, passes: number, next: unknown, rows: number) => () =>
      driver.backfills.commit(RUN_A, { jobId, passes, next: next as never, rows });
    await answer('commit pass 0', pass(JOB_A, 0, { after: 100 }, 100));
    await answer('commit pass 0 again', pass(JOB_A, 0, { after: 100 }, 100));
    await advance(1_000);
    await answer('pause', () =>
      driver.backfills.transition(RUN_A, { from: ['running'], to: 'paused' }),
    );
    await answer('commit pass 1 (in flight at the pause)', pass(JOB_A, 1, { after: 200 }, 100));
    await answer('resume with a new runner job', () =>
      driver.backfills.transition(RUN_A, { from: ['paused'], to: 'running', jobId: JOB_A2 }),
    );
    await answer('commit pass 2 by the old runner', pass(JOB_A, 2, { after: 300 }, 100));
    await answer('get as tenant acme', () => driver.backfills.get(RUN_A, { tenantId: 'acme' }));
    await advance(1_000);
    await answer('commit pass 2 with next null', pass(JOB_A2, 2, null, 40));
    await answer('cancel the completed run', () =>
      driver.backfills.transition(RUN_A, { from: ['running', 'paused'], to: 'cancelled' }),
    );
    await answer('start reindex as a second run', () =>
      driver.backfills.start({ runId: RUN_B, jobId: JOB_B, name: 'reindex' }),
    );
    await answer('fail it', () =>
      driver.backfills.transition(RUN_B, { from: ['running'], to: 'failed', error: 'boom' }),
    );
    await answer('list', () => driver.backfills.list());
    await answer('list failed', () => driver.backfills.list({ status: 'failed' }));
  },
};

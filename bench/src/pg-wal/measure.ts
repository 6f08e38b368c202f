import { openQueue, type ProbeTask } from '../probe-runs.ts';
import { enqueueInBatches } from '../workloads/enqueue.ts';
import { ENQUEUE_BATCH } from '../workloads/names.ts';
import {
  type RecordCounts,
  recordCounts,
  walBytes,
  walFlushed,
  walPlace,
  walPosition,
} from './waldump.ts';

/** What the server wrote per job over one phase. */
export interface PhaseWal {
  readonly bytesPerJob: number;
  readonly perJob: RecordCounts;
}

export interface WalResult {
  readonly enqueue: PhaseWal;
  readonly process: PhaseWal;
}

export const PHASES = ['enqueue', 'process'] as const;

/** The WAL between two positions, per job: its bytes and its records by kind. */
async function phaseWal(
  url: string,
  place: { dir: string; waldump: string },
  from: string,
  to: string,
  jobs: number,
): Promise<PhaseWal> {
  await walFlushed(url, to);
  const counts = await recordCounts(place, from, to);
  const perJob: Record<string, number> = {};
  for (const [kind, count] of Object.entries(counts)) perJob[kind] = count / jobs;
  return { bytesPerJob: (await walBytes(url, from, to)) / jobs, perJob };
}

/** In the child: enqueue, then burn down, the WAL position read around each. */
export async function measureWal(task: ProbeTask): Promise<WalResult> {
  const { pg } = task.urls;
  const runner = await openQueue(task);
  const place = await walPlace(pg);
  try {
    // A first batch makes what an empty queue lacks (first pages), as the footprint does.
    await enqueueInBatches(runner, ENQUEUE_BATCH, ENQUEUE_BATCH, task.jobs);
    const start = await walPosition(pg);
    await enqueueInBatches(runner, task.jobs, ENQUEUE_BATCH);
    const enqueued = await walPosition(pg);
    await runner.startWorker(() => {});
    await runner.settled(task.jobs + ENQUEUE_BATCH);
    const processed = await walPosition(pg);
    await runner.stopWorker();
    return {
      enqueue: await phaseWal(pg, place, start, enqueued, task.jobs),
      process: await phaseWal(pg, place, enqueued, processed, task.jobs + ENQUEUE_BATCH),
    };
  } finally {
    await runner.close();
  }
}

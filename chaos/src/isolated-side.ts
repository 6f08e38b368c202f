import { MAIN_QUEUE } from './child/jobs.ts';
import type { ProducerSpec } from './child/producer-main.ts';
import type { ChildSpec } from './child/spec.ts';
import { Fleet } from './fleet.ts';
import type { LedgerEvent } from './ledger/events.ts';
import type { Profile } from './profiles.ts';
import type { PrimaryPartition } from './servers/server.ts';

/** The processes beside the primary, inside its namespace: one worker and one producer. */
export interface IsolatedSide {
  readonly fleets: readonly Fleet[];
  /** Their pids: what they did is told apart from the majority side's. */
  pids(): ReadonlySet<number>;
  /** Answers once the producer has enqueued all its jobs (or given up on them). */
  produced(): Promise<void>;
}

/** The producer's share of a run's `chaos.steps` jobs (the parent enqueues the profile's count). */
const PRODUCER_SHARE = 0.25;

export async function startIsolatedSide(input: {
  readonly partition: PrimaryPartition;
  readonly spec: ChildSpec;
  readonly profile: Profile;
}): Promise<IsolatedSide> {
  const spec = { ...input.spec, url: input.partition.url };
  const workers = new Fleet({ ...spec, role: 'worker', queues: [MAIN_QUEUE] }, input.partition);
  const producerSpec: ProducerSpec = {
    ...spec,
    role: 'producer',
    queues: [],
    jobs: Math.round(input.profile.jobs * PRODUCER_SHARE),
    // Enqueuing on past the parent's window: in ci a cut late enough to follow the first cron
    // slots and the leader kill still finds the producer busy.
    spreadMs: input.profile.enqueueMs + input.profile.primaryPartition.cutMs,
    firstN: input.profile.jobs,
  };
  const producers = new Fleet(producerSpec, input.partition);
  await workers.spawn();
  const producer = await producers.spawn();
  const done = new Promise<void>((resolve) => {
    if (producer.exited) resolve();
    producer.child.once('exit', () => resolve());
  });
  return {
    fleets: [workers, producers],
    pids: () => new Set([...workers.members, ...producers.members].map((member) => member.pid)),
    produced: () => done,
  };
}

/** The ids the producer tried, and those whose enqueue it saw acknowledged, with when. */
export function producerEnqueues(events: readonly LedgerEvent[]) {
  const tried: string[] = [];
  const acknowledged = new Map<string, number>();
  for (const event of events) {
    if (event.ev !== 'enqueued') continue;
    tried.push(event.job);
    if (event.acknowledged) acknowledged.set(event.job, event.t);
  }
  return { tried, acknowledged };
}

import type { LifecycleEvent } from '@berth/core';
import type { Normalized } from '../normalize.js';
import type { World } from './world.js';

/** Reads the whole stream, page after page, until a read says it caught up. */
async function readStream(world: World): Promise<LifecycleEvent[]> {
  const events: LifecycleEvent[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await world.driver.lifecycle.read({ after, limit: 200 });
    events.push(...page.events);
    if (page.caughtUp) return events;
    after = page.next;
  }
}

/**
 * The sequence's lifecycle stream, per job (by label), each job's events in stream order:
 * events of one change about different jobs may come in any order, one job's may not. Instants
 * are offsets from t0, so two drivers that wrote the same events render alike.
 */
export async function lifecycleByJob(world: World): Promise<Normalized> {
  const byJob = new Map<string, Normalized[]>();
  for (const event of await readStream(world)) {
    const job = world.labels.label(event.jobId, 'job');
    const told: Normalized = [
      event.type,
      event.attempt,
      event.at - world.t0,
      event.name,
      event.queue,
      event.tenantId ?? null,
    ];
    byJob.set(job, [...(byJob.get(job) ?? []), told]);
  }
  return Object.fromEntries([...byJob].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

import type { JobRecord, Json } from '../../contract/records.js';
import { flowEventName } from './flow-names.js';
import type { ChildOutcome } from './flow-types.js';

/** What a child's settle announcement carries: which child, and how it settled. */
export interface SettledAnnouncement {
  readonly kind: 'settled';
  readonly child: string;
  readonly state: ChildOutcome['state'];
}

/** Stores an event (a driver's `events.publish`, or a backend's with its ttl bound). */
type Publish = (name: string, payload: Json) => Promise<unknown>;

/**
 * Tells a child's parent that the child settled: one stored event on the parent's flow name,
 * which wakes the parent if it is parked on it. A hint only: the parent reads the child itself,
 * and looks again every poll in case an announcement was lost (a crash right after the settle,
 * a publish that failed), so a failure here is reported to `onError` and nothing else.
 */
export async function announceSettled(
  publish: Publish,
  child: Pick<JobRecord, 'id' | 'parentId'>,
  state: ChildOutcome['state'],
  onError: (error: unknown) => void,
): Promise<void> {
  if (child.parentId === undefined) return;
  const announcement: SettledAnnouncement = { kind: 'settled', child: child.id, state };
  try {
    await publish(flowEventName(child.parentId), announcement as unknown as Json);
  } catch (error) {
    onError(error);
  }
}

/** Wakes the parents of children a driver call settled outside a worker (a cancel, a burial). */
export interface ParentAnnouncer {
  /** Announces `child`'s settle (after the change landed); a failure only warns. */
  settled(child: Pick<JobRecord, 'id' | 'parentId'>, state: ChildOutcome['state']): Promise<void>;
  /** Announces each child a claim buried (dead, or failed when dropped), without waiting. */
  buried(rows: readonly JobRecord[]): void;
}

/** A parent left unwoken looks at its children again at its next poll: worth a warning only. */
function warnUnannounced(error: unknown): void {
  process.emitWarning(`berth: could not wake a parent job: ${String(error)}`, 'BerthWarning');
}

export function parentAnnouncer(publish: Publish): ParentAnnouncer {
  return {
    settled: (child, state) => announceSettled(publish, child, state, warnUnannounced),
    buried(rows) {
      for (const row of rows) {
        const state = row.state === 'failed' ? 'failed' : 'dead';
        void announceSettled(publish, row, state, warnUnannounced);
      }
    },
  };
}

import {
  LIFECYCLE_READ_SCAN,
  type LifecycleEvent,
  type LifecycleEventType,
  type LifecyclePage,
  lifecyclePositionInvalid,
  matchesLifecycleRead,
  type ScreenedLifecycleRead,
} from '@berth/core/driver';

/** What an event says before the log gives it its position. */
type Told = Omit<LifecycleEvent, 'position'>;

const POSITION = /^[1-9][0-9]{0,15}$/;

/**
 * The lifecycle stream as a ring of the newest `retention` events. Event `seq` k (from 1, never
 * reused) sits at `k % retention`, so trimming as it writes costs nothing and a position maps to
 * its slot by arithmetic: every call is O(what it answers).
 */
export class LifecycleLog {
  private readonly ring: (LifecycleEvent | undefined)[];
  private last = 0;

  constructor(private readonly retention: number) {
    this.ring = new Array(retention);
  }

  tell(told: Told): void {
    this.last += 1;
    this.ring[this.last % this.retention] = { position: String(this.last), ...told };
  }

  end(): string | undefined {
    return this.last === 0 ? undefined : String(this.last);
  }

  read(request: ScreenedLifecycleRead): LifecyclePage {
    const after = this.decode(request.after);
    const oldest = Math.max(1, this.last - this.retention + 1);
    const events: LifecycleEvent[] = [];
    let seq = Math.max(after + 1, oldest);
    let examined = 0;
    for (; seq <= this.last && examined < LIFECYCLE_READ_SCAN; seq += 1) {
      examined += 1;
      const event = this.ring[seq % this.retention] as LifecycleEvent;
      if (matchesLifecycleRead(event, request)) events.push(event);
      if (events.length === request.limit) {
        seq += 1;
        break;
      }
    }
    const next = examined === 0 ? request.after : String(seq - 1);
    return {
      events,
      ...(next === undefined ? {} : { next }),
      caughtUp: seq > this.last,
    };
  }

  private decode(after: string | undefined): number {
    if (after === undefined) return 0;
    const seq = POSITION.test(after) ? Number(after) : Number.NaN;
    if (!(seq <= this.last)) throw lifecyclePositionInvalid(after);
    return seq;
  }
}

/** The parts of a row an event names. */
interface Subject {
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  readonly tenantId: string | undefined;
  readonly attempts: number;
}

/** Writes `type` for `row` inside the change that made it, at the change's `now`. */
export function tell(
  log: LifecycleLog,
  row: Subject,
  type: LifecycleEventType,
  at: number,
  attempt = row.attempts,
): void {
  log.tell({
    type,
    jobId: row.id,
    name: row.name,
    queue: row.queue,
    ...(row.tenantId === undefined ? {} : { tenantId: row.tenantId }),
    attempt,
    at,
  });
}

import { randomUUID } from 'node:crypto';
import type { KV } from '@nats-io/kv';
import type { NatsContext } from './context.js';
import { ensureSent, tailSent } from './lifecycle-announce.js';
import { decodeJson, encodeJson, type StoredJob } from './record.js';
import { writeKey } from './writes.js';

/** How often each process runs a pass (most send nothing). */
export const REPAIR_EVERY_MS = 1_000;
/** A tail written this recently is left to its writer, which publishes it within one request. */
export const REPAIR_GRACE_MS = 5_000;
/** How long a holder keeps the pass after its last write of the key; it renews at half of it. */
const LEASE_MS = 10_000;
/** How often a process that does not hold the pass reads the key (who holds it, how far verified). */
const LOOK_MS = 5_000;
/** Tails one pass checks at most (one get each, all in flight at once). */
const PASS_CHECKS = 256;
/** Entries one pass looks at at most, verified ones dropped included: every pass is bounded. */
const PASS_LOOKS = 10_000;

/** What the repair key holds: who runs the pass, until when, and how far it verified. */
interface RepairDoc {
  readonly holder: string;
  /** Date.now() past which another process may take the pass over. */
  readonly until: number;
  /** Every record at or below this jobs-bucket revision has its tail in the stream. */
  readonly swept: number;
}

/** How far the repair pass verified, as its key says (0 before its first pass). */
export async function verifiedUpTo(aux: KV, key: string): Promise<number> {
  const entry = await aux.get(key);
  return entry?.operation === 'PUT' ? decodeJson<RepairDoc>(entry.value).swept : 0;
}

/** The rows a pass checks, and the entries it walked, in revision order. */
interface Scan {
  readonly due: { readonly job: StoredJob; readonly revision: number }[];
  /** Each entry walked: its revision, and its place in `due` (-1: known sent, nothing to check). */
  readonly walked: { readonly revision: number; readonly due: number }[];
}

/**
 * The repair pass: a record's last change (an ack, a burial) has no later writer to publish its
 * tail if its own writer died between the write and the publish, so one process of the
 * deployment (whoever holds the repair key's lease) walks the rows whose tail may be unsent
 * (`JobIndex.unsent`, oldest revision first), and for each written more than REPAIR_GRACE_MS
 * ago makes sure the stream holds its tail (`ensureSent`: one get, a publish if missing; none for
 * a tail this process saw the stream take). It records the revision it verified up to with its
 * lease renewal, so every process knows those tails are in the stream (and a restart walks only
 * what came after). The holder writes the key every LEASE_MS / 2, or when it checked tails;
 * every other process reads it every LOOK_MS. Each pass checks at most PASS_CHECKS tails and
 * walks at most PASS_LOOKS entries.
 */
export class LifecycleRepair {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private readonly holder = randomUUID();
  /** The key's revision this process last wrote and its lease's end, while it holds the pass. */
  private held: { readonly revision: number; readonly until: number } | undefined;
  /** When (Date.now()) this process last read the key. */
  private looked = Number.NEGATIVE_INFINITY;

  constructor(private readonly context: NatsContext) {}

  start(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = true;
      this.pass()
        .catch(() => 0)
        .finally(() => {
          this.running = false;
        });
    }, REPAIR_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One pass at `now`; answers how many tails it checked (none unless it holds the pass). */
  async pass(now = Date.now()): Promise<number> {
    const state = this.context.lifecycle;
    const renewing = this.held !== undefined && this.held.until - now <= LEASE_MS / 2;
    const scan = this.scan(now - REPAIR_GRACE_MS, this.held === undefined ? 0 : PASS_CHECKS);
    if (this.held !== undefined && !renewing && scan.due.length === 0) return 0;
    if (this.held === undefined) {
      if (now - this.looked < LOOK_MS) return 0;
      if (!(await this.take(now))) return 0;
      return this.pass(now);
    }
    const outcomes = await Promise.allSettled(
      scan.due.map(({ job }) => ensureSent(this.context, job)),
    );
    // Verified up to the first tail whose check failed: the next pass takes it again.
    let swept = state.swept;
    for (const { revision, due } of scan.walked) {
      if (due >= 0 && outcomes[due]?.status !== 'fulfilled') break;
      swept = Math.max(swept, revision);
    }
    const doc: RepairDoc = { holder: this.holder, until: now + LEASE_MS, swept };
    const key = this.context.subjects.lifecycleRepair;
    const written = await writeKey(this.context.aux, key, encodeJson(doc), this.held.revision);
    this.held = written === undefined ? undefined : { revision: written, until: doc.until };
    if (written !== undefined) state.swept = swept;
    return scan.due.length;
  }

  /** Reads the key: takes the pass when nobody holds it; answers whether this process holds it. */
  private async take(now: number): Promise<boolean> {
    const state = this.context.lifecycle;
    const key = this.context.subjects.lifecycleRepair;
    this.looked = now;
    const entry = await this.context.aux.get(key);
    const doc = entry?.operation === 'PUT' ? decodeJson<RepairDoc>(entry.value) : undefined;
    if (doc !== undefined && doc.swept > state.swept) state.swept = doc.swept;
    if (doc !== undefined && doc.holder !== this.holder && doc.until > now) return false;
    const until = now + LEASE_MS;
    const mine: RepairDoc = { holder: this.holder, until, swept: state.swept };
    const written = await writeKey(this.context.aux, key, encodeJson(mine), entry?.revision ?? 0);
    if (written === undefined) return false;
    this.held = { revision: written, until };
    return true;
  }

  /**
   * The rows to check, oldest first: those whose tail was written before `before` and may be
   * unsent, at most `limit`; entries at or below the verified revision are dropped on the way,
   * as are those whose tail this process saw the stream take. Stops at the first tail too young.
   */
  private scan(before: number, limit: number): Scan {
    const { index } = this.context;
    const scan: Scan = { due: [], walked: [] };
    let looks = 0;
    for (const [id, revision] of index.unsent.entries()) {
      looks += 1;
      if (looks > PASS_LOOKS) break;
      const row = index.row(id);
      if (
        revision <= this.context.lifecycle.swept ||
        row === undefined ||
        row.revision !== revision
      ) {
        index.unsent.drop(id);
        continue;
      }
      if ((row.job.lc?.wall ?? 0) > before) break;
      if (tailSent(this.context, row.job, revision)) {
        index.unsent.drop(id);
        scan.walked.push({ revision, due: -1 });
        continue;
      }
      if (scan.due.length >= limit) break;
      scan.walked.push({ revision, due: scan.due.length });
      scan.due.push({ job: row.job, revision });
    }
    return scan;
  }
}

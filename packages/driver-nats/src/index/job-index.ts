import {
  type JobState,
  type QueueStats,
  type ScreenedList,
  TERMINAL_STATES,
} from '@berth/core/driver';
import {
  type BatchState,
  type StoredDoc,
  type StoredJob,
  visibleJob,
  type Woken,
} from '../record.js';
import { BatchIndex } from './batch-index.js';
import { EventIndex } from './event-index.js';
import { storedFor, walkList } from './list-walk.js';
import { PauseIndex } from './pause-index.js';
import { QueueIndex } from './queue-index.js';
import { claimOrder, finishedOrder, listOrder, makeRow, type Row } from './row.js';
import { ScheduleIndex } from './schedule-index.js';
import { SortedList } from './sorted-list.js';
import { UnsentIndex } from './unsent-index.js';

/** A delete marker in the jobs bucket: its key, revision, and when the server stored it. */
export interface Marker {
  readonly key: string;
  readonly revision: number;
  readonly at: number;
}

/** What a job key holds as the index last saw it: a conditional write names `revision`. */
export interface DocEntry {
  readonly doc: StoredDoc;
  readonly revision: number;
}

function listOf<K>(map: Map<K, SortedList<Row>>, key: K, compare = listOrder): SortedList<Row> {
  let list = map.get(key);
  if (list === undefined) {
    list = new SortedList(compare);
    map.set(key, list);
  }
  return list;
}

/**
 * The in-process mirror of the jobs bucket, fed in revision order by the watch. It answers
 * claims (due rows in claim order), list pages (keyset walks), stats (counts kept as rows move)
 * and purges (settled rows by finish time) without reading the bucket, so none of them costs
 * more as the backlog grows. It only ever reflects writes; every change is still decided by a
 * conditional write against the revision recorded here.
 */
export class JobIndex {
  /** Docs with no visible row (a pending create, an aborted one): rows hold their own doc. */
  private readonly hidden = new Map<string, DocEntry>();
  private readonly rows = new Map<string, Row>();
  private readonly queues = new Map<string, QueueIndex>();
  private readonly all = new SortedList<Row>(listOrder);
  private readonly byName = new Map<string, SortedList<Row>>();
  private readonly byTenant = new Map<string, SortedList<Row>>();
  private readonly byState = new Map<JobState, SortedList<Row>>();
  private readonly finished = new Map<JobState, SortedList<Row>>();
  private readonly waiters = new Map<string, Set<Row>>();
  private readonly runs = new Map<string, string>();
  private readonly decisions = new BatchIndex();
  readonly events = new EventIndex();
  /** Queue pauses: claims leave paused queues out. */
  readonly pauses = new PauseIndex();
  /** Stored schedules: `list` and `due` read them here. */
  readonly schedules = new ScheduleIndex();
  /** Rows whose lifecycle tail may be missing from the stream (lifecycle-repair.ts). */
  readonly unsent: UnsentIndex;
  /** Delete markers seen, oldest first: removed from the bucket once past their grace. */
  readonly markers: Marker[] = [];
  /** The highest revision applied. */
  delivered = 0;

  /** `verified`: how far the lifecycle repair pass verified (see UnsentIndex). */
  constructor(verified?: () => number) {
    this.unsent = new UnsentIndex(verified);
  }

  entry(id: string): DocEntry | undefined {
    return this.rows.get(id) ?? this.hidden.get(id);
  }

  row(id: string): Row | undefined {
    return this.rows.get(id);
  }

  rowOfRun(runId: string): Row | undefined {
    const id = this.runs.get(runId);
    return id === undefined ? undefined : this.rows.get(id);
  }

  batch(id: string): BatchState | undefined {
    return this.decisions.state(id);
  }

  /** A job key changed (or, `doc` undefined, was deleted). */
  applyJob(id: string, doc: StoredDoc | undefined, revision: number): void {
    const before = this.entry(id)?.doc.pending?.batch;
    if (before !== undefined) this.decisions.unname(before, id);
    const old = this.rows.get(id);
    if (old !== undefined) {
      this.unplace(old);
      this.rows.delete(id);
    }
    this.hidden.delete(id);
    if (doc === undefined) {
      this.unsent.drop(id);
      return;
    }
    const batch = doc.pending?.batch;
    if (batch !== undefined) this.decisions.name(batch, id);
    const job = visibleJob(doc, batch === undefined ? undefined : this.decisions.state(batch));
    this.unsent.note(id, job, revision);
    if (job === undefined) {
      this.hidden.set(id, { doc, revision });
      return;
    }
    const row = makeRow(id, revision, doc, job);
    this.place(row);
    this.rows.set(id, row);
  }

  /** A batch decision landed (or was deleted): its pending rows become visible, or stay hidden. */
  applyBatch(id: string, state: BatchState | undefined): void {
    this.decisions.decide(id, state);
    for (const jobId of this.decisions.rows(id)) {
      const entry = this.entry(jobId);
      if (entry !== undefined) this.applyJob(jobId, entry.doc, entry.revision);
    }
  }

  /** Pending rows that name batch `id`. */
  pendingIn(id: string): readonly string[] {
    return this.decisions.rows(id);
  }

  /** Batch decisions no stored doc names any more: safe to delete. */
  idleBatches(limit: number): string[] {
    return this.decisions.idleBatches(limit);
  }

  /**
   * Batches with no decision yet whose rows were all written before `before`, at most `limit`,
   * oldest first (one written since stops the walk).
   */
  undecidedBatches(before: number, limit: number): string[] {
    return this.decisions.undecidedBatches(limit, (batch) =>
      this.decisions.rows(batch).every((jobId) => {
        const pending = this.entry(jobId)?.doc.pending;
        const at = pending?.create?.createdAt ?? pending?.requeue?.at;
        return at !== undefined && at < before;
      }),
    );
  }

  /** Aborted batches some doc still names, at most `limit`. */
  abortedBatches(limit: number): string[] {
    return this.decisions.abortedBatches(limit);
  }

  /** An event was stored or removed: the waiters of its name are re-placed by their new wake. */
  rewake(name: string): void {
    for (const row of [...(this.waiters.get(name) ?? [])]) {
      const woken = this.wokenOf(row);
      if (woken?.eventSeq === row.woken?.eventSeq) continue;
      this.unplace(row);
      this.place(row);
    }
  }

  waitersOf(name: string): readonly Row[] {
    return [...(this.waiters.get(name) ?? [])];
  }

  private wokenOf(row: Row): Woken | undefined {
    return this.wokenFor(row.job);
  }

  /** The wake the newest stored event of a suspended waiter's name gives it, if any. */
  wokenFor(job: StoredJob): Woken | undefined {
    const { state, waitFor, waitSeq } = job;
    if (state !== 'suspended' || waitFor === undefined) return undefined;
    const latest = this.events.latest(waitFor);
    if (latest === undefined || latest.seq <= (waitSeq ?? 0)) return undefined;
    return { at: latest.event.publishedAt, eventSeq: latest.seq };
  }

  private queue(name: string): QueueIndex {
    let queue = this.queues.get(name);
    if (queue === undefined) {
      queue = new QueueIndex(name);
      this.queues.set(name, queue);
    }
    return queue;
  }

  private place(row: Row): void {
    const { job } = row;
    row.woken = this.wokenOf(row);
    row.runAt = row.woken?.at ?? job.runAt;
    row.updatedAt = row.woken?.at ?? job.updatedAt;
    const queue = this.queue(job.queue);
    row.lapsed = job.state === 'running' && (job.visibleAt ?? 0) <= queue.leaseClock;
    queue.add(row);
    this.all.insert(row);
    listOf(this.byName, job.name).insert(row);
    if (job.tenantId !== undefined) listOf(this.byTenant, job.tenantId).insert(row);
    listOf(this.byState, job.state).insert(row);
    if (TERMINAL_STATES.has(job.state)) listOf(this.finished, job.state, finishedOrder).insert(row);
    if (job.state === 'suspended' && job.waitFor !== undefined) {
      let rows = this.waiters.get(job.waitFor);
      if (rows === undefined) {
        rows = new Set();
        this.waiters.set(job.waitFor, rows);
      }
      rows.add(row);
    }
    this.runs.set(job.runId, row.id);
  }

  private unplace(row: Row): void {
    const { job } = row;
    // An emptied queue keeps its entry (and lease clock); stats leave out queues holding no row.
    this.queues.get(job.queue)?.remove(row);
    this.all.delete(row);
    this.byName.get(job.name)?.delete(row);
    if (job.tenantId !== undefined) this.byTenant.get(job.tenantId)?.delete(row);
    this.byState.get(job.state)?.delete(row);
    this.finished.get(job.state)?.delete(row);
    if (job.waitFor !== undefined) this.waiters.get(job.waitFor)?.delete(row);
    if (this.runs.get(job.runId) === row.id) this.runs.delete(job.runId);
  }

  /** Moves running rows whose lease lapsed by `now` into claim order (each moves once). */
  private checkLeases(now: number, queues: readonly string[]): void {
    for (const name of queues) {
      const queue = this.queues.get(name);
      if (queue === undefined || now <= queue.leaseClock) continue;
      queue.leaseClock = now;
      for (const row of queue.lapsing(now)) {
        this.unplace(row);
        this.place(row);
      }
    }
  }

  /** Up to `limit` claimable rows over `queues`, in claim order, leaving out `skip`. */
  claimable(
    queues: readonly string[],
    now: number,
    limit: number,
    skip: ReadonlySet<string>,
    names: readonly string[] | undefined,
  ): Row[] {
    this.checkLeases(now, queues);
    const found = queues.flatMap(
      (name) => this.queues.get(name)?.claimable(now, limit, skip, names) ?? [],
    );
    return queues.length === 1 ? found : found.sort(claimOrder).slice(0, limit);
  }

  /** Up to `limit` lapsed rows on their final attempt over `queues`, in claim order. */
  spent(
    queues: readonly string[],
    now: number,
    limit: number,
    skip: ReadonlySet<string>,
    names: readonly string[] | undefined,
  ): Row[] {
    this.checkLeases(now, queues);
    const found = queues.flatMap((name) => this.queues.get(name)?.spent(limit, skip, names) ?? []);
    return queues.length === 1 ? found : found.sort(claimOrder).slice(0, limit);
  }

  /** Per queue holding any row, by queue name. */
  stats(now: number): QueueStats[] {
    return [...this.queues.values()]
      .filter((queue) => queue.size > 0)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((queue) => queue.stats(now));
  }

  /** Settled rows of `states` with `finishedAt < olderThan`, oldest first, at most `limit`. */
  finishedBefore(states: readonly JobState[], olderThan: number, limit: number): Row[] {
    const out: Row[] = [];
    for (const state of states) {
      let taken = 0;
      for (const row of this.finished.get(state)?.ascending() ?? []) {
        if ((row.job.finishedAt ?? 0) >= olderThan || taken >= limit) break;
        out.push(row);
        taken += 1;
      }
    }
    // The oldest `limit` across the states are among each state's oldest `limit`.
    return out.sort(finishedOrder).slice(0, limit);
  }

  /**
   * Up to `limit + 1` rows matching every filter (state effective as of `now`), from the cursor:
   * after it (or from the newest) in list order, or with `before` the rows before it nearest
   * first. The narrowest index is walked and the other filters applied on the way.
   */
  list(request: ScreenedList, now: number): Row[] {
    return walkList(this.sourcesOf(request), request, now);
  }

  private sourcesOf(request: ScreenedList): SortedList<Row>[] {
    const pick = (list: SortedList<Row> | undefined) => (list === undefined ? [] : [list]);
    if (request.state !== undefined) {
      const stored = storedFor(request.state);
      return stored.flatMap((state) => pick(this.byState.get(state)));
    }
    if (request.queue !== undefined) return pick(this.queues.get(request.queue)?.list);
    if (request.name !== undefined) return pick(this.byName.get(request.name));
    if (request.tenantId !== undefined) return pick(this.byTenant.get(request.tenantId));
    return [this.all];
  }
}

import type { Driver, DriverHooks, ManualClock } from '@berth/core';

/** What a driver package hands the kit: a fresh, isolated driver on the kit's clock and hooks. */
export interface DriverUnderTest {
  readonly driver: Driver;
  /** Drops what this driver made (schema, keys, streams) and closes it. */
  dispose(): Promise<void>;
}

export interface FactoryContext {
  /** The clock the driver must read every instant from. */
  readonly clock: ManualClock;
  /** Pass as the driver's `hooks` option: the kit sets the seams through it. */
  readonly hooks: DriverHooks;
}

export type DriverFactory = (context: FactoryContext) => Promise<DriverUnderTest>;

/** The seams a case may set; unset means "do nothing". Reset before every case. */
export interface KitHooks {
  afterEnqueueConflict?: (() => Promise<void>) | undefined;
  afterRequeueCheck?: (() => Promise<void>) | undefined;
}

/** What a case gets: its own fresh driver, the clock that driver reads, and the seams. */
export interface CaseContext {
  readonly driver: Driver;
  readonly clock: ManualClock;
  readonly hooks: KitHooks;
  /** The start instant of the clock: cases express instants relative to it. */
  readonly t0: number;
  /** The factory the case's driver came from, for cases that need more drivers (differential). */
  readonly factory: DriverFactory;
}

export interface KitCase {
  /** A spec sentence: "requeue of an id nobody queued answers JOB_NOT_FOUND". */
  readonly title: string;
  readonly run: (context: CaseContext) => Promise<void>;
  /** Per-case timeout, ms, when the default is too short (concurrency, differential). */
  readonly timeoutMs?: number;
}

/** One group of the kit: one file, one spec section. */
export interface KitGroup {
  readonly name: string;
  readonly cases: readonly KitCase[];
}

/** Options for the kit as a whole. */
export interface KitOptions {
  /**
   * The reference driver the differential runner compares against, normally
   * `createMemoryDriver`. Without it the differential group compares the driver with itself.
   */
  readonly reference?: DriverFactory;
  /** Differential sequences to run. Default 200 (the CI floor). */
  readonly differentialRuns?: number;
  /** Replays the differential runs of a failure report's seed; default a fresh seed per run. */
  readonly differentialSeed?: number;
  /** Calls the fuzz group makes per driver. Default 300. */
  readonly fuzzRuns?: number;
  /** Replays the fuzz group's call sequence of a failure report's seed; default a fresh seed. */
  readonly fuzzSeed?: number;
  /** Groups to run, by name; default all. Narrowing is for local work only, never CI. */
  readonly only?: readonly string[];
}

/** The instant every kit clock starts at: 2026-01-01T00:00:00Z. */
export const KIT_T0 = Date.UTC(2026, 0, 1);

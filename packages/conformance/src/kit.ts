import type { Clock, Driver, DriverHooks, ManualClock } from '@berth/core';
import type { ServerControl } from './server-control.js';
import type { KitShard } from './shard.js';

/** What a driver package hands the kit: a fresh, isolated driver on the kit's clock and hooks. */
export interface DriverUnderTest {
  readonly driver: Driver;
  /**
   * Opens ANOTHER driver instance over the SAME store as `driver` (its schema, key prefix or
   * streams; its own connections), reading instants from `context.clock`: what two processes of
   * one deployment are. The memory driver answers a driver over the same in-process store
   * (`createMemoryDriver({ sameStoreAs })`). The kit closes each sibling before `dispose`.
   * Groups `concurrency` and `events` need it; without it their cases fail saying so.
   */
  sibling?(context: SiblingContext): Promise<Driver>;
  /** Drops what this driver made (schema, keys, streams) and closes it. */
  dispose(): Promise<void>;
  /**
   * For drivers that take an app's executor (capability `inAppTransaction`): runs `fn` with a
   * driver over the same store whose every call goes through ONE open app transaction, then
   * commits it. Group `app-transaction`.
   */
  inAppTransaction?(fn: (driver: Driver) => Promise<void>): Promise<void>;
  /**
   * Control over the server `driver` and its siblings talk to, for group `restart`: restarts it,
   * takes it away for longer than the driver's replay grace, and cuts one instance off without
   * telling it (see {@link ServerControl}). Give it from a factory over a PRIVATE server of the
   * test file's own (KitOptions `serverFactory`), never a shared one. A driver whose store lives
   * in its own process has no server to take away: it answers `inProcessStore`.
   */
  readonly server?: ServerControl;
}

/**
 * The lifecycle retention every driver the kit opens is given (FactoryContext): more events
 * than any differential sequence writes, few enough that group `lifecycle` writes past twice it.
 */
export const KIT_LIFECYCLE_RETENTION = 500;

export interface FactoryContext {
  /** The clock the driver must read every instant from. */
  readonly clock: ManualClock;
  /** Pass as the driver's `hooks` option: the kit sets the seams through it. */
  readonly hooks: DriverHooks;
  /**
   * Pass as the driver's `lifecycleRetention` option (always KIT_LIFECYCLE_RETENTION): group
   * `lifecycle` writes past it and checks what is kept.
   */
  readonly lifecycleRetention: number;
}

/** What a sibling is opened with: a clock of its own (a publisher on a skewed clock) or the case's. */
export interface SiblingContext {
  readonly clock: Clock;
  readonly hooks: DriverHooks;
  /** Pass as the sibling's `lifecycleRetention` option, as the first driver's. */
  readonly lifecycleRetention: number;
}

/**
 * What a factory's drivers can do beyond the contract. The kit reads it from the factory when it
 * lays out its groups (before any driver is opened); declare it with {@link withCapabilities}.
 */
export interface DriverCapabilities {
  /**
   * The drivers take an app's executor and answer {@link DriverUnderTest.inAppTransaction}:
   * runs group `app-transaction`.
   */
  readonly inAppTransaction?: boolean;
}

/** Makes a fresh, isolated driver for one case; may declare its {@link DriverCapabilities}. */
export type DriverFactory = ((context: FactoryContext) => Promise<DriverUnderTest>) & {
  readonly capabilities?: DriverCapabilities;
};

/** `factory`, declaring what its drivers can do beyond the contract. */
export const withCapabilities = (
  factory: (context: FactoryContext) => Promise<DriverUnderTest>,
  capabilities: DriverCapabilities,
): DriverFactory => Object.assign((context: FactoryContext) => factory(context), { capabilities });

/** The seams a case may set; unset means "do nothing". Reset before every case. */
export interface KitHooks {
  afterEnqueueConflict?: (() => Promise<void>) | undefined;
  afterRequeueCheck?: (() => Promise<void>) | undefined;
  beforeMarkedEnqueue?: (() => Promise<void>) | undefined;
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
  /**
   * Another driver over the case's store (see {@link DriverUnderTest.sibling}), on `clock`
   * (default the case's clock). Closed by the kit when the case ends.
   */
  readonly sibling: (clock?: Clock) => Promise<Driver>;
  /** The kit's options, for groups sized by them (`scale`). */
  readonly options: KitOptions;
  /** The factory's {@link DriverUnderTest.server}, when it gave one (group `restart`). */
  readonly server: ServerControl | undefined;
}

export interface KitCase {
  /** A spec sentence: "requeue of an id nobody queued answers JOB_NOT_FOUND". */
  readonly title: string;
  readonly run: (context: CaseContext) => Promise<void>;
  /** Per-case timeout, ms, when the default is too short (concurrency, differential). */
  readonly timeoutMs?: number;
  /**
   * Roughly what the case takes against a local server, ms, for dealing cases to a kit's shares
   * (see {@link KitShard}); only the long cases say, the rest count as a typical case.
   */
  readonly costMs?: number;
}

/** One group of the kit: one file, one spec section. */
export interface KitGroup {
  readonly name: string;
  readonly cases: readonly KitCase[];
  /** The factory this group's cases open their drivers from, when not the kit's own. */
  readonly factory?: DriverFactory | undefined;
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
  /**
   * Groups to leave out, by name. For a kit that runs a driver again on another topology (a
   * cluster, Sentinel) after its single-server kit ran whole: its CI budget may leave to a deep
   * run the groups whose answers come from the driver's own code, not from the topology —
   * `fuzz` (core screens every call first), `scale` and `large-values` (the driver's bounds).
   * See {@link TOPOLOGY_DEEP_ONLY} and the README's "CI budget and the deep run".
   */
  readonly except?: readonly string[];
  /**
   * This test file's share of the kit (`describeDriver` only): files that call it with every
   * `index` from 0 to `count - 1` and the same other options run every case exactly once
   * between them, so a slow driver's kit can run in several files at once. Default: all.
   */
  readonly shard?: KitShard;
  /**
   * Rows of each kind (ready, future, expired) the `scale` group seeds behind its calls.
   * Default {@link DEFAULT_SCALE_BACKLOG}; never below 7,000 (the small backlog, a hundredth of
   * it, must hold the rows every sample of every measured call takes).
   */
  readonly scaleBacklog?: number;
  /**
   * The factory group `restart` opens its drivers from: like the main one, but over a PRIVATE
   * server of the test file's own (started once per file), and answering
   * {@link DriverUnderTest.server}. Default: the main factory, which must then answer `server`
   * itself (the memory driver answers `inProcessStore`). Without either, the group's cases
   * fail saying so: a driver never skips it silently.
   */
  readonly serverFactory?: DriverFactory;
  /**
   * Starts the private server `serverFactory` opens its drivers on. The kit calls it in a
   * `beforeAll` of group `restart`'s suite (only in the file whose share runs the group), with a
   * timeout of its own: starting a server is the file's setup, and no case's timeout pays for it.
   * Without it, the first case of the group starts the server inside its own timeout.
   */
  readonly serverStart?: () => Promise<void>;
}

/** The groups a topology kit's CI budget leaves to the deep run (see `except`). */
export const TOPOLOGY_DEEP_ONLY: readonly string[] = ['fuzz', 'scale', 'large-values'];

/** Whether `options` run the group named `name` (`only`, then `except`). */
export const runsGroup = (options: KitOptions, name: string): boolean =>
  (options.only === undefined || options.only.includes(name)) &&
  !(options.except ?? []).includes(name);

/** The `scale` group's backlog of each kind when the options name none. */
export const DEFAULT_SCALE_BACKLOG = 10_000;

/** The instant every kit clock starts at: 2026-01-01T00:00:00Z. */
export const KIT_T0 = Date.UTC(2026, 0, 1);

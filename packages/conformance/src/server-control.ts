import type { Driver } from '@berth/core';

/**
 * What group `restart` does to the server a driver talks to (a driver factory's
 * `DriverUnderTest.server`). Every call resolves once the server answers again; the kit then
 * waits for each instance to answer `check()` before it asks anything else, so a driver may take
 * a moment to reconnect, but every answer it gives afterwards is compared with the reference.
 *
 * Implement it over a PRIVATE server of the test file's own (a `pg_ctl` cluster, a
 * `redis-server` with appendonly, a `nats-server` with JetStream on a temp store), never a shared
 * one, and route each instance (the driver and every sibling) through a TCP proxy of its own, so
 * one instance can be cut off alone.
 */
export interface ServerControl {
  /**
   * How long the driver keeps what a returning instance needs to pick up where it left off
   * instead of reading the store again (NATS: `deleteMarkerGraceMs`, how long a delete marker
   * outlives its row); 0 for a driver that keeps nothing of the sort. The group's outage lasts
   * longer than this, and it waits this long between a purge and the next one, so what the
   * first left for late readers is gone. Keep it small (about a second) in the test factory.
   */
  readonly replayGraceMs: number;
  /**
   * Stops the server gracefully (what it acknowledged is kept, as in a planned restart) and starts
   * it again on the same store and port. Every instance's connections see it go.
   */
  restart(): Promise<void>;
  /** Takes the server away from every instance for `ms` of wall time, then brings it back. */
  outage(ms: number): Promise<void>;
  /**
   * Cuts `instance` off without telling it: from now on its connections carry nothing and the
   * server has closed its side of them (what a process stopped by SIGSTOP, or a machine asleep,
   * finds when it wakes: the server dropped it meanwhile). The other instances work on.
   */
  freeze(instance: Driver): Promise<void>;
  /** `instance` finds its connections closed (resolves once it has) and may connect again. */
  thaw(instance: Driver): Promise<void>;
}

const nothing = async (): Promise<void> => {};

/**
 * The control of a driver whose store lives in its own process (memory): there is no server to
 * restart, take away or cut an instance off from, so each call does nothing. The group still
 * runs its script on such a driver, which checks that the script itself answers alike on two
 * instances and on the reference; it proves nothing about reconnecting, which such a driver
 * never does.
 */
export const inProcessStore: ServerControl = {
  replayGraceMs: 0,
  restart: nothing,
  outage: nothing,
  freeze: nothing,
  thaw: nothing,
};

import type { Clock, DriverHooks } from '@berth/core/driver';
import type { Db } from '../executor.js';
import type { Statements } from '../sql/index.js';

/** What every family of backend calls shares: the statements, where to send them, the clock. */
export interface OpsContext {
  readonly db: Db;
  readonly sql: Statements;
  readonly clock: Clock;
  readonly hooks: DriverHooks;
  /** The NOTIFY channel of this schema, bound into every statement that makes work. */
  readonly channel: string;
  /** The NOTIFY channel a cancel of a running job is told on (`cancelChannel`). */
  readonly cancelChannel: string;
  /** The NOTIFY channel the ids of settled jobs are told on (`settleChannel`). */
  readonly settleChannel: string;
  /** The schema's plain name, for DRIVER_NOT_MIGRATED. */
  readonly schema: string;
}

import { type Clock, systemClock } from './clock.js';
import type { DriverHooks } from './contract/driver.js';
import { DEFAULT_LIFECYCLE_RETENTION } from './contract/lifecycle.js';
import { DEFAULT_MAX_PAYLOAD_BYTES } from './contract/limits.js';
import { defaultCursorSecret } from './screen/cursor.js';
import { checkLifecycleRetention } from './screen/lifecycle.js';

/**
 * The options every driver takes, meaning the same on each: a driver's own options extend these
 * and `resolveBaseOptions` gives them their defaults, so no driver restates them.
 */
export interface BaseDriverOptions {
  /** Where every instant comes from. Default: the system clock. */
  readonly clock?: Clock;
  /** The conformance kit's race seams (see {@link DriverHooks}). Production code never sets them. */
  readonly hooks?: DriverHooks;
  /**
   * The largest payload, result or step output, in bytes of its JSON. Default
   * DEFAULT_MAX_PAYLOAD_BYTES (1 MiB).
   */
  readonly maxPayloadBytes?: number;
  /**
   * The key list cursors are signed with, at least 16 characters. Default: derived from the
   * driver's name and where its data lives (the schema, the prefix), so every process of one
   * deployment reads the others' cursors; set it (the same value in every process) to make
   * cursors unforgeable.
   */
  readonly cursorSecret?: string;
  /**
   * The lifecycle events the store keeps at least (`driver.lifecycle`), from
   * MIN_LIFECYCLE_RETENTION to MAX_LIFECYCLE_RETENTION. Default DEFAULT_LIFECYCLE_RETENTION
   * (10 000). Give every process of one deployment the same value.
   */
  readonly lifecycleRetention?: number;
}

/** {@link BaseDriverOptions} with every default filled in. */
export interface BaseDriverSettings {
  readonly clock: Clock;
  readonly hooks: DriverHooks;
  readonly maxPayloadBytes: number;
  readonly cursorSecret: string;
  readonly lifecycleRetention: number;
}

/**
 * The base options' values: the given ones, else the defaults. `driver` is the driver's name and
 * `store` where its data lives (a schema, a prefix): together they derive the default cursor
 * secret. Values are checked where they are used (`createDriver` screens the payload limit and
 * the secret; the retention is checked here), so every driver refuses a bad one alike.
 */
export function resolveBaseOptions(
  driver: string,
  store: string,
  options: BaseDriverOptions,
): BaseDriverSettings {
  return {
    clock: options.clock ?? systemClock,
    hooks: options.hooks ?? {},
    maxPayloadBytes: options.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES,
    cursorSecret: options.cursorSecret ?? defaultCursorSecret(driver, store),
    lifecycleRetention: checkLifecycleRetention(
      options.lifecycleRetention ?? DEFAULT_LIFECYCLE_RETENTION,
    ),
  };
}

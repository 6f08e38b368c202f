import type { ByIdOptions, Driver } from '@berth/core';
import type { Command } from 'commander';
import { type Connection, connect } from './connect.js';
import { createOutput, type Io, type Output } from './output.js';

/** The options every command takes (declared on the program, read through optsWithGlobals). */
export interface Globals {
  readonly url?: string;
  readonly schema?: string;
  readonly prefix?: string;
  readonly cursorSecret?: string;
  readonly tenant?: string;
  readonly json?: boolean;
}

/** One run of the CLI: where it writes, what was typed, and the exit code a command sets. */
export interface Cli {
  readonly io: Io;
  readonly argv: readonly string[];
  exitCode: number;
}

/** What a command's body gets: the open driver, the output, and the by-id options. */
export interface Session {
  readonly connection: Connection;
  readonly driver: Driver;
  readonly out: Output;
  readonly globals: Globals;
  /** `{ tenantId }` when `--tenant` was given, else `{}`. */
  readonly byId: ByIdOptions;
}

export function outputOf(cli: Cli, command: Command): Output {
  return createOutput(cli.io, command.optsWithGlobals<Globals>().json === true);
}

/** Opens the driver the globals name, runs `body`, and closes the driver whatever happens. */
export async function withSession(
  cli: Cli,
  command: Command,
  body: (session: Session) => Promise<void>,
): Promise<void> {
  const globals = command.optsWithGlobals<Globals>();
  const connection = await connect(globals);
  let failed = false;
  try {
    await body({
      connection,
      driver: connection.driver,
      out: createOutput(cli.io, globals.json === true),
      globals,
      byId: globals.tenant === undefined ? {} : { tenantId: globals.tenant },
    });
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    // A close failure is reported only when it is the one thing that went wrong.
    await connection.driver.close().catch((error: unknown) => {
      if (!failed) throw error;
    });
  }
}

/** `value` without its undefined members: fits the contract's exact optional properties. */
export function defined<T extends Record<string, unknown>>(
  value: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

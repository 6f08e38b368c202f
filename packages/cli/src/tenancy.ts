import type { Command } from 'commander';
import { UsageError } from './errors.js';

/**
 * What a command does with `--tenant`. Every command that runs something declares one, so a new
 * command cannot silently act on every tenant's jobs while the operator named one
 * (test/tenancy.test.ts walks the whole tree):
 *
 *   honoursTenant(command, 'lists only its jobs');
 *   refusesTenant(command, 'counts every tenant; it has no per-tenant view');
 */
export type TenantUse =
  | { readonly honours: true; readonly how: string }
  | { readonly honours: false; readonly why: string };

const DECLARED = new WeakMap<Command, TenantUse>();

/** `command` scopes what it reads or changes to the `--tenant` given; `how` says in what way. */
export function honoursTenant(command: Command, how: string): Command {
  DECLARED.set(command, { honours: true, how });
  return command;
}

/** `command` cannot scope to a tenant: with `--tenant` it is a usage error saying `why`. */
export function refusesTenant(command: Command, why: string): Command {
  DECLARED.set(command, { honours: false, why });
  return command;
}

export function tenantUseOf(command: Command): TenantUse | undefined {
  return DECLARED.get(command);
}

const pathOf = (command: Command): string => {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent != null; at = at.parent) {
    names.unshift(at.name());
  }
  return names.join(' ');
};

/**
 * Run before every command's action: `--tenant` on a command that refuses it (or declared
 * neither) stops here, before any driver is opened.
 */
export function screenTenant(command: Command): void {
  if (command.optsWithGlobals<{ tenant?: string }>().tenant === undefined) return;
  const use = tenantUseOf(command);
  if (use?.honours === true) return;
  const why = use === undefined ? 'it does not scope its work to a tenant' : use.why;
  throw new UsageError(
    `berth ${pathOf(command)} does not take --tenant: ${why}; run it without --tenant`,
  );
}

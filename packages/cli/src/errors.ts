import { BerthError, configInvalid, registerErrorCode } from '@berth/core';

declare module '@berth/core' {
  interface BerthErrorMetas {
    CONFIRMATION_REQUIRED: {
      readonly action: string;
      /** Jobs the change would touch, when known before it runs. */
      readonly count?: number;
      /** True when a terminal asked and the operator said no. */
      readonly declined?: boolean;
    };
    USAGE_INVALID: {
      /** The parser's reason (`unknownOption`, `invalidArgument`), when the parser found it. */
      readonly reason?: string;
    };
    DRIVER_NOT_INSTALLED: {
      /** The URL scheme that needs the driver (`postgres:`). */
      readonly scheme: string;
      /** The package Node could not find: the driver, or its client library. */
      readonly package: string;
    };
  }
}

/**
 * The CLI's own refusals, registered here once per process; a URL the CLI cannot use is core's
 * CONFIG_INVALID on `--url`. USAGE_INVALID and an unanswerable CONFIRMATION_REQUIRED exit 2 (see
 * {@link exitCodeOf}), the rest 1.
 */
export const CLI_ERROR_CODES = {
  /** A bulk change or a purge without `--yes` where no terminal can confirm it, or declined. */
  CONFIRMATION_REQUIRED: {
    title: 'a change to many jobs needs the operator to confirm it',
    fix: 'answer y at the prompt, or add --yes where no terminal can answer one',
  },
  /** The command line itself is wrong: an unknown command or flag, a bad value, a missing argument. */
  USAGE_INVALID: {
    title: 'the command line is not one berth takes',
    fix: 'correct the command line as the message says; add --help to the command to see what it takes',
  },
  /** The URL's scheme needs a driver package that is not installed next to the CLI. */
  DRIVER_NOT_INSTALLED: {
    title: 'the driver package for this URL is not installed',
    fix: 'install the package named in meta.package where @berth/cli is installed',
  },
} as const;

for (const code of Object.keys(CLI_ERROR_CODES) as (keyof typeof CLI_ERROR_CODES)[]) {
  registerErrorCode({ code, ...CLI_ERROR_CODES[code] });
}

/** A mistake in how the command was typed: exit code 2, the usage shown. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What a confirmation is about: the action, and how many jobs when that is known up front. */
export interface Change {
  readonly action: string;
  readonly count?: number;
}

const describeChange = (change: Change): string =>
  change.count === undefined ? `${change.action}` : `${change.action} of ${change.count} job(s)`;

const changeMeta = (change: Change) => ({
  action: change.action,
  ...(change.count === undefined ? {} : { count: change.count }),
});

/** `command` is the line the operator typed, shown again with `--yes`. */
export function confirmationRequired(change: Change, command: string) {
  return new BerthError({
    code: 'CONFIRMATION_REQUIRED',
    detail: `${describeChange(change)} needs confirmation, and no terminal is there to answer a prompt`,
    fix: `add --yes to act without a prompt: ${command} --yes`,
    meta: changeMeta(change),
  });
}

export function confirmationDeclined(change: Change) {
  return new BerthError({
    code: 'CONFIRMATION_REQUIRED',
    detail: `${describeChange(change)} was not confirmed; nothing changed`,
    fix: 'run the command again and answer y to go ahead',
    meta: { ...changeMeta(change), declined: true },
  });
}

/** `missing` is the package Node could not find: the driver itself, or its client library. */
export function driverNotInstalled(input: {
  scheme: string;
  driverPackage: string;
  missing: string;
  peer: string;
}) {
  const install = `${input.driverPackage} ${input.peer}`;
  return new BerthError({
    code: 'DRIVER_NOT_INSTALLED',
    detail: `${input.scheme}// URLs need ${input.driverPackage} and ${input.peer}; ${input.missing} is not installed`,
    fix: `install them where @berth/cli is: npm install --global ${install} (with a global berth), or pnpm add ${install} (in a project)`,
    meta: { scheme: input.scheme, package: input.missing },
  });
}

const URL_ALLOWED =
  'takes a postgres://, postgresql://, redis://, rediss:// or nats:// URL (or set BERTH_URL)';
const URL_EXAMPLE = 'berth stats --url postgres://postgres@127.0.0.1:5432/app';

export function urlUnsupported(url: string, scheme: string | undefined) {
  return configInvalid({
    option: '--url',
    reason:
      scheme === undefined
        ? `${JSON.stringify(maskUrl(url))} is not a URL`
        : `scheme ${scheme} is not one berth can open`,
    allowed: URL_ALLOWED,
    example: URL_EXAMPLE,
  });
}

/** The URL with its password replaced, for anything printed. */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Exit codes: what an operator's script branches on. */
export const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

/**
 * A refusal found before anything was sent exits 2, as a usage error does: the missing `--yes`
 * where no terminal can answer. Everything else Berth refuses exits 1.
 */
export function exitCodeOf(error: BerthError): number {
  const unanswerable =
    error.code === 'CONFIRMATION_REQUIRED' &&
    (error.meta as { declined?: boolean }).declined !== true;
  return unanswerable ? EXIT.usage : EXIT.refused;
}

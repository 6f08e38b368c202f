import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The nats-server builds the cluster tests run: Debian's 2.9 (installed) and trixie's 2.10. */
export type NatsRelease = '2.9' | '2.10';

interface ReleaseSpec {
  readonly envVar: string;
  readonly candidates: () => readonly string[];
  /** Whether `nats-server --version` output is this release. */
  readonly matches: (version: string) => boolean;
  readonly install: string;
}

const cacheDir = (): string =>
  process.env.BERTH_CACHE_DIR ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'berth');

const RELEASES: Record<NatsRelease, ReleaseSpec> = {
  '2.9': {
    envVar: 'BERTH_NATS_2_9_BIN',
    candidates: () => ['/usr/sbin/nats-server', '/usr/bin/nats-server'],
    matches: (version) => version.startsWith('2.9.'),
    install: 'apt-get install nats-server   (Debian bookworm ships 2.9.10)',
  },
  '2.10': {
    envVar: 'BERTH_NATS_2_10_BIN',
    candidates: () => [join(cacheDir(), 'nats-server-2.10.27', 'nats-server')],
    matches: (version) => version.startsWith('2.10.'),
    install: 'bash tooling/nats-2.10.sh   (fetches Debian trixie 2.10.27 into a cache folder)',
  },
};

/** `nats-server --version` of a binary: `2.9.10`, or undefined when it does not run. */
export function natsServerVersion(binary: string): string | undefined {
  try {
    const text = execFileSync(binary, ['--version'], { encoding: 'utf8' });
    return /v(\d+\.\d+\.\d+\S*)/.exec(text)?.[1];
  } catch {
    return undefined;
  }
}

/**
 * The path of a nats-server binary of `release` for tests: the env var (`BERTH_NATS_2_9_BIN`,
 * `BERTH_NATS_2_10_BIN`), then where the install puts it. None there, or one of another
 * version, throws naming the command that installs it: never a silent skip.
 */
export function natsServerBinary(release: NatsRelease): { path: string; version: string } {
  const spec = RELEASES[release];
  const fromEnv = process.env[spec.envVar];
  const paths = fromEnv !== undefined && fromEnv !== '' ? [fromEnv] : spec.candidates();
  for (const path of paths) {
    if (!existsSync(path)) continue;
    const version = natsServerVersion(path);
    if (version !== undefined && spec.matches(version)) return { path, version };
    throw new Error(
      `${path} is nats-server ${version ?? '(does not run)'}, not ${release}: install ${release} with\n  ${spec.install}\n(or set ${spec.envVar} to a nats-server ${release} binary)`,
    );
  }
  const where =
    fromEnv === undefined || fromEnv === '' ? paths.join(', ') : `${spec.envVar}=${fromEnv}`;
  throw new Error(
    `no nats-server ${release} for the cluster tests: none at ${where}. Install it with\n  ${spec.install}\n(or set ${spec.envVar} to a nats-server ${release} binary)`,
  );
}

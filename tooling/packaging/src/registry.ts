import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runServer } from 'verdaccio';

export interface Registry {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** A token that may publish `@berth/*`: the rehearsal's user, made at start. */
  readonly token: string;
  /** The packument of `name`, or undefined when the registry does not hold it. */
  packument(name: string): Promise<Packument | undefined>;
  stop(): Promise<void>;
}

export interface Packument {
  readonly 'dist-tags': Record<string, string>;
  readonly versions: Record<
    string,
    { readonly dist: { readonly tarball: string; readonly integrity: string } }
  >;
}

/**
 * A private npm registry (verdaccio) on a free loopback port, its storage and users under `dir`.
 * It has no uplink at all, so `@berth/*` can come only from what was published to it: an app that
 * installs Berth from it proves the release, never the public registry's copy.
 */
export async function startRegistry(dir: string): Promise<Registry> {
  const server: Server = await runServer({
    self_path: dir,
    storage: join(dir, 'storage'),
    auth: { htpasswd: { file: join(dir, 'htpasswd'), max_users: 1 } },
    uplinks: {},
    packages: {
      '@berth/*': { access: '$all', publish: '$authenticated' },
      '**': { access: '$all', publish: '$authenticated' },
    },
    // Its own warnings (a slow password hash) are noise in a test run; errors still print.
    log: { type: 'stdout', format: 'pretty', level: 'error' },
  } as Parameters<typeof runServer>[0]);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  const user = await fetch(`${url}-/user/org.couchdb.user:rehearsal`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'rehearsal', password: 'rehearsal-only-password' }),
  });
  if (user.status !== 201) {
    await stop();
    throw new Error(`verdaccio refused the rehearsal's user: ${user.status} ${await user.text()}`);
  }
  const { token } = (await user.json()) as { token: string };
  return {
    url,
    token,
    async packument(name) {
      const response = await fetch(`${url}${name.replace('/', '%2f')}`);
      if (response.status === 404) return undefined;
      if (!response.ok) throw new Error(`${url} answered ${response.status} for ${name}`);
      return (await response.json()) as Packument;
    },
    stop,
  };
}

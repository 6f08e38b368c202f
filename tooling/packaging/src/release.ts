import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitAll } from './git.js';
import { run } from './pack.js';
import type { Registry } from './registry.js';

/**
 * Runs the changesets CLI in `copy` and answers what it printed; a failure throws with all of it.
 * The CLI is started with node, not through `pnpm changeset`: pnpm would first bring the copy's
 * install up to date, and the copy's node_modules is this repository's.
 */
async function changeset(
  copy: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const bin = join(copy, 'node_modules', '@changesets', 'cli', 'bin.js');
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      cwd: copy,
      env,
      timeout: 90_000,
    });
    return `${stdout}${stderr}`;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`changeset ${args.join(' ')} failed in ${copy}:\n${stdout}${stderr}`, {
      cause: error,
    });
  }
}

/** `pnpm changeset version` as a maintainer runs it, then the commit they make once it is reviewed. */
export async function changesetVersion(copy: string): Promise<string> {
  const output = await changeset(copy, ['version']);
  await commitAll(copy, 'Version packages');
  return output;
}

/**
 * `changeset publish` into `registry` and nowhere else. The copy's .npmrc holds the registry and
 * its token for `pnpm publish`; changesets itself takes the registry from the environment (for
 * `npm info` and for the registry it hands `pnpm publish`), so the environment names it too, for
 * the default registry and the @berth scope alike. pnpm may not install before it publishes: the
 * copy's node_modules is this repository's.
 */
export async function changesetPublish(copy: string, registry: Registry): Promise<string> {
  const auth = registry.url.replace(/^https?:/, '');
  writeFileSync(
    join(copy, '.npmrc'),
    `registry=${registry.url}\n${auth}:_authToken=${registry.token}\n`,
  );
  return changeset(copy, ['publish'], {
    ...process.env,
    npm_config_registry: registry.url,
    'npm_config_@berth:registry': registry.url,
    npm_config_verify_deps_before_run: 'false',
    pnpm_config_verify_deps_before_run: 'false',
  });
}

import {
  constants,
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { git, initRepo } from './git.js';
import { publishedPackages, root } from './pack.js';

/** Every entry of a package's node_modules (scoped ones included) that is a link pnpm made. */
function links(nodeModules: string): string[] {
  return readdirSync(nodeModules)
    .flatMap((entry) => {
      if (entry.startsWith('.')) return [];
      const path = join(nodeModules, entry);
      if (entry.startsWith('@') && !lstatSync(path).isSymbolicLink()) {
        return readdirSync(path).map((scoped) => join(entry, scoped));
      }
      return [entry];
    })
    .filter((entry) => lstatSync(join(nodeModules, entry)).isSymbolicLink());
}

/**
 * Copies the working tree as it is into `destination` — tracked and untracked-but-not-ignored
 * files, uncommitted changes included — plus each published package's built dist/, and commits it
 * there, so a release can be rehearsed without touching this repository.
 *
 * Nothing is installed: the copy's node_modules is a link to this one, and every workspace
 * package's own links are recreated as they are (relative), so `workspace:` links land on the
 * copy's packages (whose versions the rehearsal changes) and the rest on this install's store.
 */
export async function copyWorkingTree(destination: string): Promise<void> {
  const files = (await git(root, 'ls-files', '--cached', '--others', '--exclude-standard', '-z'))
    .split('\0')
    .filter((path) => path !== '' && existsSync(join(root, path)));
  for (const path of files) {
    mkdirSync(dirname(join(destination, path)), { recursive: true });
    copyFileSync(join(root, path), join(destination, path), constants.COPYFILE_FICLONE);
  }
  for (const { dir, name } of publishedPackages()) {
    const dist = join(dir, 'dist');
    if (!existsSync(dist)) {
      throw new Error(`${name} has no ${relative(root, dist)}: run pnpm build first`);
    }
    cpSync(dist, join(destination, relative(root, dist)), {
      recursive: true,
      mode: constants.COPYFILE_FICLONE,
    });
  }
  symlinkSync(join(root, 'node_modules'), join(destination, 'node_modules'));
  const workspaces = files
    .filter((path) => path.endsWith('package.json') && path !== 'package.json')
    .map((path) => dirname(path))
    .filter((dir) => existsSync(join(root, dir, 'node_modules')));
  for (const dir of workspaces) {
    for (const entry of links(join(root, dir, 'node_modules'))) {
      const link = join(destination, dir, 'node_modules', entry);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(readlinkSync(join(root, dir, 'node_modules', entry)), link);
    }
  }
  await initRepo(destination, 'the working tree, as the rehearsal found it', root);
}

/**
 * What a release writes in a repository: the pending changesets, the published packages'
 * manifests and changelogs, the tags and an .npmrc. The rehearsal compares it before and after, to
 * show it ran on its copy only.
 */
export async function releaseState(repo: string): Promise<Record<string, unknown>> {
  const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null);
  return {
    changesets: readdirSync(join(repo, '.changeset')).sort(),
    packages: publishedPackages(repo).map(({ dir, name }) => ({
      name,
      manifest: read(join(dir, 'package.json')),
      changelog: read(join(dir, 'CHANGELOG.md')),
    })),
    tags: (await git(repo, 'tag', '--list')).split('\n').filter((tag) => tag !== ''),
    npmrc: read(join(repo, '.npmrc')),
  };
}

import { writeFileSync } from 'node:fs';
import { run } from './pack.js';

/**
 * Git's own variables that point a command at another repository (a hook running `pnpm test` sets
 * them): with them, a command meant for the copy would act on this repository.
 */
const REDIRECTS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
];

/**
 * Runs git in `cwd` and answers its stdout. Commits carry a fixed identity and no signing, and no
 * hook runs: the machine's git config must not decide whether a throwaway repository commits.
 */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !REDIRECTS.includes(name)),
  );
  const { stdout } = await run(
    'git',
    [
      '-c',
      'commit.gpgsign=false',
      '-c',
      'tag.gpgsign=false',
      '-c',
      'core.hooksPath=/dev/null',
      ...args,
    ],
    {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
      env: {
        ...env,
        GIT_AUTHOR_NAME: 'Berth release rehearsal',
        GIT_AUTHOR_EMAIL: 'rehearsal@berth.invalid',
        GIT_COMMITTER_NAME: 'Berth release rehearsal',
        GIT_COMMITTER_EMAIL: 'rehearsal@berth.invalid',
      },
    },
  );
  return stdout;
}

/**
 * Makes `dir` a new repository on `main`, its files (as .gitignore allows) in a first commit.
 * Given `borrowFrom`, a repository whose files `dir` mostly copies, it reads that repository's
 * objects (git alternates) instead of writing its own: only what differs is stored anew.
 */
export async function initRepo(dir: string, message: string, borrowFrom?: string): Promise<void> {
  await git(dir, 'init', '--quiet', '--initial-branch=main');
  if (borrowFrom !== undefined) {
    const objects = await git(
      borrowFrom,
      'rev-parse',
      '--path-format=absolute',
      '--git-path',
      'objects',
    );
    const alternates = await git(
      dir,
      'rev-parse',
      '--path-format=absolute',
      '--git-path',
      'objects/info/alternates',
    );
    writeFileSync(alternates.trim(), `${objects.trim()}\n`);
  }
  await commitAll(dir, message);
}

/** Commits every change in the repository `dir`, as .gitignore allows. */
export async function commitAll(dir: string, message: string): Promise<void> {
  await git(dir, 'add', '--all');
  await git(dir, 'commit', '--quiet', '--allow-empty', '--message', message);
}

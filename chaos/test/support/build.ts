import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Builds the chaos package and the packages it loads: the runs' child processes start from the
 * builds (src/child-command.ts), so they must be those of the sources under test.
 */
export default function setup(): void {
  execFileSync(
    'pnpm',
    ['exec', 'turbo', 'run', 'build', '--filter=@berth/chaos...', '--output-logs=errors-only'],
    { cwd: fileURLToPath(new URL('../../..', import.meta.url)), stdio: 'inherit' },
  );
}

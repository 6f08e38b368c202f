import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Builds the CLI and the packages it loads, so the tests run what `berth` users run. */
export default function setup(): void {
  execFileSync(
    'pnpm',
    ['exec', 'turbo', 'run', 'build', '--filter=@berth/cli...', '--output-logs=errors-only'],
    { cwd: fileURLToPath(new URL('../../../..', import.meta.url)), stdio: 'inherit' },
  );
}

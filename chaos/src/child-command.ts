import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/**
 * The node arguments that run the chaos entry `entry` (a `.ts` file of src/) in a child process:
 * its build under dist/ when there is one, else the source through tsx's loader. The test setup
 * and `pnpm chaos` build first (`turbo run build --filter=@berth/chaos...`: Berth's packages then
 * load from their builds too). A child on the build starts on about a third of the CPU, since
 * tsx's loader hooks cost more than the child's own start, and one run starts dozens.
 */
export function childArgs(entry: URL): string[] {
  const source = fileURLToPath(entry);
  const built = source.replace(/[\\/]chaos[\\/]src[\\/]/, '/chaos/dist/').replace(/\.ts$/, '.js');
  return existsSync(built) ? [built] : ['--import', TSX, '--conditions=@berth/source', source];
}

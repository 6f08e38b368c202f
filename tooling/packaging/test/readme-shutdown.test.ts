import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  dropNatsPrefix,
  dropPgSchema,
  dropRedisPrefix,
  readmeBlock,
  serverUrl,
  splitImports,
  stripTypes,
} from '@berth/test-servers';
import { afterAll, describe, expect, it } from 'vitest';

// The worker section's shutdown line, run as an app runs it: its own process on a real server,
// a SIGTERM, and the process must then end by itself. A driver left open (a pg pool, a Redis or
// NATS connection) keeps the event loop alive and the process never exits.
const README = new URL('../../../packages/core/README.md', import.meta.url);
const built = (name: string): string => {
  const file = fileURLToPath(new URL(`../../../packages/${name}/dist/index.js`, import.meta.url));
  if (!existsSync(file)) throw new Error(`${file} is missing: run pnpm build first`);
  return pathToFileURL(file).href;
};

const token = (): string => `shutdown_${randomUUID().replaceAll('-', '').slice(0, 12)}`;

interface Backend {
  readonly kind: 'pg' | 'redis' | 'nats';
  /** Module text that imports the driver and declares `driver` on `url`. */
  open(url: string, namespace: string): string;
  drop(url: string, namespace: string): Promise<void>;
}

const BACKENDS: readonly Backend[] = [
  {
    kind: 'pg',
    open: (url, schema) => `import { createPgDriver } from '${built('driver-pg')}';
// Idle connections kept, as a busy app's pool holds them: the default idle timeout would end an
// unclosed pool 10 s later by chance.
const driver = createPgDriver({
  connectionString: ${JSON.stringify(url)},
  schema: '${schema}',
  poolOptions: { idleTimeoutMs: 0 },
});
await driver.migrate();`,
    drop: (url, schema) => dropPgSchema(url, schema),
  },
  {
    kind: 'redis',
    open: (url, prefix) => `import { createRedisDriver } from '${built('driver-redis')}';
const driver = createRedisDriver({ url: ${JSON.stringify(url)}, prefix: '${prefix}' });`,
    drop: (url, prefix) => dropRedisPrefix(url, prefix),
  },
  {
    kind: 'nats',
    open: (url, prefix) => `import { createNatsDriver } from '${built('driver-nats')}';
const driver = createNatsDriver({ servers: ${JSON.stringify(url)}, prefix: '${prefix}' });`,
    drop: (url, prefix) => dropNatsPrefix(url, prefix),
  },
];

/** How long a stopped app may take to end; far above a drain of idle workers (ms). */
const EXIT_BOUND_MS = 20_000;

/** Runs `file`, sends SIGTERM once it printed `ready`, and answers how it ended. */
function runAndTerminate(
  file: string,
): Promise<{ exited: boolean; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let bound: NodeJS.Timeout | undefined;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (!chunk.toString().includes('ready') || bound !== undefined) return;
      child.kill('SIGTERM');
      bound = setTimeout(() => {
        child.kill('SIGKILL');
        resolve({ exited: false, code: null, stderr });
      }, EXIT_BOUND_MS);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(bound);
      if (bound === undefined) reject(new Error(`the app ended before it was ready:\n${stderr}`));
      else resolve({ exited: true, code, stderr });
    });
  });
}

/** Every README of the repository: the root's, each package's and each example's. */
function readmes(): string[] {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const under = (dir: string) =>
    readdirSync(join(root, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(dir, entry.name, 'README.md'));
  return ['README.md', ...under('packages'), ...under('examples')]
    .filter((path) => existsSync(join(root, path)))
    .map((path) => join(root, path));
}

describe('every README example that stops a worker or scheduler then closes the driver', () => {
  it('no ts block stops one and leaves its driver open', () => {
    const open: string[] = [];
    let stopping = 0;
    for (const file of readmes()) {
      for (const [, block = ''] of readFileSync(file, 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)) {
        const stop = Math.max(
          block.lastIndexOf('worker.stop('),
          block.lastIndexOf('scheduler.stop('),
        );
        if (stop < 0) continue;
        stopping += 1;
        if (block.indexOf('driver.close()', stop) < 0) open.push(`${file}:\n${block}`);
      }
    }
    expect(stopping).toBeGreaterThan(5);
    expect(open).toEqual([]);
  });
});

describe("the README's shutdown line ends the process", () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-shutdown-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const { imports, body } = splitImports(readmeBlock(README, 'shutdown-example'));

  it('the shutdown example closes the driver after stopping the worker', () => {
    expect(imports).toEqual([]);
    expect(body.indexOf('driver.close()')).toBeGreaterThan(body.indexOf('worker.stop('));
  });

  for (const backend of BACKENDS) {
    it(`on ${backend.kind}: a SIGTERM stops the worker, closes the driver, and the process exits 0`, async () => {
      const url = await serverUrl(backend.kind);
      const namespace = token();
      const file = join(dir, `${backend.kind}.mjs`);
      writeFileSync(
        file,
        `import { createWorker, defineJob } from '${built('core')}';
${backend.open(url, namespace)}
const jobs = [defineJob({ name: 'noop', run: async () => {} })];
const alert = (...args) => console.error('dead', ...args);
${stripTypes(body)}
console.log('ready');
`,
      );
      try {
        const ended = await runAndTerminate(file);
        expect(
          ended.exited,
          `still running ${EXIT_BOUND_MS} ms after SIGTERM\n${ended.stderr}`,
        ).toBe(true);
        expect(ended.code, ended.stderr).toBe(0);
      } finally {
        await backend.drop(url, namespace);
      }
    }, 60_000);
  }
});

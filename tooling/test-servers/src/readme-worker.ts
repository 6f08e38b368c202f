import { expect, it } from 'vitest';
import {
  readmeBlock,
  runSnippet,
  snippetTypeErrors,
  splitImports,
  stripTypes,
} from './readme-snippets.js';

/**
 * The `@berth/core` exports the quick-start uses, passed in: core's tests depend on this package,
 * so it cannot depend on core (a workspace cycle turbo refuses).
 */
export interface QuickStartCore {
  readonly createClient: unknown;
  readonly createWorker: unknown;
  readonly defineJob: unknown;
}

/** One run of the snippet: what it sees besides core and `console`, and its cleanup. */
export interface QuickStartSandbox {
  /** The driver factory (bound to a schema or prefix of the run's own) and `process`. */
  readonly bindings: Readonly<Record<string, unknown>>;
  readonly dispose: () => Promise<void>;
}

/** What differs between the drivers' worker quick-starts. */
export interface QuickStartCase {
  /** The test file's `import.meta.url`: `../README.md` and `../tsconfig.json` are its package's. */
  readonly testFile: string;
  /** What the run does, as its test names it after "runs as written: ". */
  readonly steps: string;
  /** The driver's import line the README shows, after core's. */
  readonly driverImport: string;
  readonly core: QuickStartCore;
  /** Opens the run's sandbox, so the snippet can never meet another test's data. */
  readonly sandbox: () => Promise<QuickStartSandbox>;
}

const CORE_IMPORT = "import { createClient, createWorker, defineJob } from '@berth/core';";

/**
 * The two tests of a driver README's `worker-quick-start` block, the same for every driver: it
 * type-checks as written, and it runs as written (types stripped, nothing else changed: what runs
 * is the text the reader copies), printing the job it worked.
 */
export function readmeWorkerQuickStart(quickStart: QuickStartCase): void {
  const block = (): string =>
    readmeBlock(new URL('../README.md', quickStart.testFile), 'worker-quick-start');

  it('the README worker quick-start type-checks as written', () => {
    const errors = snippetTypeErrors(block(), {
      tsconfig: new URL('../tsconfig.json', quickStart.testFile),
      at: new URL('./readme-worker.snippet.ts', quickStart.testFile),
    });
    expect(errors).toEqual([]);
  }, 60_000);

  it(`the README worker quick-start runs as written: ${quickStart.steps}`, async () => {
    const { imports, body: source } = splitImports(block());
    expect(imports).toEqual([CORE_IMPORT, quickStart.driverImport]);
    const body = stripTypes(source);

    const sandbox = await quickStart.sandbox();
    const printed: unknown[][] = [];
    try {
      await runSnippet(body, {
        ...quickStart.core,
        ...sandbox.bindings,
        console: { log: (...args: unknown[]) => printed.push(args) },
      });
    } finally {
      await sandbox.dispose();
    }
    expect(printed).toEqual([['email.send {"to":"ada@example.com","sent":true}']]);
  });
}

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type TypeScript from 'typescript';

// Loaded on first use, so the tests that only want a server never pay for the compiler.
let compiler: typeof TypeScript | undefined;
const typescript = (): typeof TypeScript => {
  compiler ??= createRequire(import.meta.url)('typescript') as typeof TypeScript;
  return compiler;
};

/**
 * The fenced ```ts block after the `<!-- marker -->` comment in the README at `readmeUrl`,
 * exactly as the README shows it. No such marker, or no block after it, throws naming the marker.
 */
export function readmeBlock(readmeUrl: URL, marker: string): string {
  const readme = readFileSync(readmeUrl, 'utf8');
  const at = readme.indexOf(`<!-- ${marker} -->`);
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(at));
  if (at < 0 || block?.[1] === undefined) {
    throw new Error(`${fileURLToPath(readmeUrl)} has no ${marker} block`);
  }
  return block[1];
}

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<void>;

/**
 * Runs `code` as the body of an async function whose parameters are the names of `bindings`,
 * each bound to its value: the snippet sees those names and nothing of the test's scope.
 */
export function runSnippet(code: string, bindings: Record<string, unknown>): Promise<void> {
  const run = new AsyncFunction(...Object.keys(bindings), code);
  return run(...Object.values(bindings));
}

/** The snippet's `import ` lines, and the rest of its lines as the body that runs. */
export function splitImports(code: string): { imports: string[]; body: string } {
  const lines = code.split('\n');
  return {
    imports: lines.filter((line) => line.startsWith('import ')),
    body: lines.filter((line) => !line.startsWith('import ')).join('\n'),
  };
}

/** `code` with its TypeScript types stripped and nothing else changed, as ES2022 module text. */
export function stripTypes(code: string): string {
  const ts = typescript();
  return ts.transpileModule(code, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText;
}

/**
 * The compile errors of `code`, checked as the module at `where.at` under the tsconfig at
 * `where.tsconfig`. Put `at` inside the package, so imports resolve as its own files' do; no file
 * is written there.
 */
export function snippetTypeErrors(code: string, where: { tsconfig: URL; at: URL }): string[] {
  const ts = typescript();
  const configPath = fileURLToPath(where.tsconfig);
  const snippetPath = fileURLToPath(where.at);
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (config === undefined) throw new Error(`cannot read ${configPath}`);
  const host = ts.createCompilerHost(config.options);
  const readOriginal = host.readFile.bind(host);
  const existsOriginal = host.fileExists.bind(host);
  const sourceOriginal = host.getSourceFile.bind(host);
  host.readFile = (path) => (path === snippetPath ? code : readOriginal(path));
  host.fileExists = (path) => path === snippetPath || existsOriginal(path);
  host.getSourceFile = (path, language, ...rest) =>
    path === snippetPath
      ? ts.createSourceFile(path, code, language, true)
      : sourceOriginal(path, language, ...rest);
  const program = ts.createProgram({ rootNames: [snippetPath], options: config.options, host });
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(snippetPath))
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CompilerState,
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type ExtractorMessage,
  ExtractorMessageCategory,
  type IConfigFile,
} from '@microsoft/api-extractor';
import { type ApiEntry, root } from './entries.js';

/** What one run of API Extractor over every entry produced. */
export interface Extraction {
  readonly entry: ApiEntry;
  /** The report as API Extractor writes it now (a loose finding without its line and column). */
  readonly report: string;
  /** The doc model (`.api.json`) API Documenter reads. */
  readonly model: string;
  /** Errors and warnings: each fails the run (anything worth reviewing goes in the report). */
  readonly problems: readonly string[];
}

const NONE = { logLevel: ExtractorLogLevel.None };
const IN_REPORT = { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true };

/** The API Extractor config of one entry, with its outputs under `outDir`. */
export function extractorConfig(entry: ApiEntry, outDir: string): IConfigFile {
  return {
    projectFolder: entry.packageDir,
    mainEntryPointFilePath: entry.types,
    compiler: {
      // The repo's own settings, minus the source condition (a driver's import of @berth/core must
      // read core's dist, not its src). typeRoots is spelled out: an override has no file of its
      // own, so TypeScript would look for @types/node under the cwd and, missing it, API Extractor
      // stops with "Unable to follow symbol for AbortSignal".
      overrideTsconfig: {
        extends: join(root, 'tooling', 'tsconfig.base.json'),
        compilerOptions: {
          customConditions: [],
          typeRoots: [join(root, 'tooling', 'api', 'node_modules', '@types')],
        },
        files: [entry.types],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: entry.reportName,
      reportFolder: join(outDir, 'reports'),
      reportTempFolder: join(outDir, 'temp'),
      // A type the entry uses but does not export is still part of its API: report it too.
      includeForgottenExports: true,
    },
    docModel: {
      enabled: true,
      apiJsonFilePath: join(outDir, 'models', `${entry.reportName}.api.json`),
    },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    newlineKind: 'lf',
    messages: {
      compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
      extractorMessageReporting: {
        // Findings on a declaration (a type used but not exported, a broken {@link}) are written
        // into the report, where review sees them beside the declaration.
        default: IN_REPORT,
        // Berth tags no release stages: every export of an entry is public.
        'ae-missing-release-tag': NONE,
        // The report already marks each one "(undocumented)".
        'ae-undocumented': NONE,
      },
      // Doc-comment syntax (an unescaped `>`) only changes how a page renders.
      tsdocMessageReporting: { default: NONE },
    },
  };
}

/**
 * Runs API Extractor in-process over `entries`, writing reports and doc models under `outDir`.
 * One TypeScript program serves every entry: each declaration file is parsed once.
 */
export function extract(entries: readonly ApiEntry[], outDir: string): Extraction[] {
  for (const folder of ['reports', 'temp', 'models'])
    mkdirSync(join(outDir, folder), { recursive: true });
  const configs = entries.map((entry) => {
    if (!existsSync(entry.types)) {
      throw new Error(`${entry.types} is missing: run pnpm build first (turbo run build)`);
    }
    const packageJsonFullPath = join(entry.packageDir, 'package.json');
    return ExtractorConfig.prepare({
      configObject: extractorConfig(entry, outDir),
      configObjectFullPath: undefined,
      packageJsonFullPath,
    });
  });
  const [first, ...rest] = configs;
  if (first === undefined) return [];
  const compilerState = CompilerState.create(first, {
    additionalEntryPoints: rest.map((config) => config.mainEntryPointFilePath),
  });
  return entries.map((entry, at) => {
    const problems: string[] = [];
    const config = configs[at] as ExtractorConfig;
    const result = Extractor.invoke(config, {
      localBuild: true,
      compilerState,
      messageCallback: (message: ExtractorMessage) => {
        // Console warnings say a report file was created or changed: the callers compare reports.
        const fromConsole = message.category === ExtractorMessageCategory.Console;
        const level = message.logLevel;
        if (
          level === ExtractorLogLevel.Error ||
          (!fromConsole && level === ExtractorLogLevel.Warning)
        ) {
          problems.push(`${entry.reportName}: ${message.formatMessageWithLocation(root)}`);
        }
        message.handled = true;
      },
    });
    if (!result.succeeded && problems.length === 0) {
      problems.push(`${entry.reportName}: API Extractor failed`);
    }
    const model = join(outDir, 'models', `${entry.reportName}.api.json`);
    if (entry.docName !== entry.packageName) renameModel(model, entry.packageName, entry.docName);
    const written = readFileSync(join(outDir, 'reports', `${entry.reportName}.api.md`), 'utf8');
    // A finding with no declaration to sit beside names its source line and column: dropped, so
    // an edit elsewhere in that file does not change the report.
    const report = written.replace(/^(\/\/ [^\s:]+):\d+:\d+ - /gm, '$1 - ');
    return { entry, report, model, problems };
  });
}

/** Renames the package of a doc model, so two entries of one package load into one API model. */
function renameModel(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8')
    .replaceAll(JSON.stringify(from), JSON.stringify(to))
    .replaceAll(`"${from}!`, `"${to}!`);
  writeFileSync(file, text);
}

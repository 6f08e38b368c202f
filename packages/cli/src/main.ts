import { isBerthError } from '@berth/core';
import { CommanderError } from 'commander';
import { EXIT, exitCodeOf, UsageError } from './errors.js';
import { escapeBlock, escapeLine, safeJson } from './escape.js';
import { forOperator } from './operator-fixes.js';
import { createOutput, type Io } from './output.js';
import { createProgram } from './program.js';
import type { Cli } from './session.js';

export { EXIT };

/** `--json` anywhere before a `--`: known before parsing, so even a usage error answers in JSON. */
const wantsJson = (argv: readonly string[]): boolean => {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
};

/**
 * A reader that left (`berth jobs ls | head`) is no failure: the rest of the output is dropped
 * and the command finishes (closing its driver) as it would have.
 */
function dropOutputOnceReaderLeaves(stream: NodeJS.WritableStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    throw error;
  });
}

/** The usage document: one Berth code, whichever part of the CLI found the mistake. */
const usageDocument = (message: string, reason?: string): string =>
  safeJson({
    name: 'UsageError',
    code: 'USAGE_INVALID',
    message,
    ...(reason === undefined ? {} : { reason }),
  });

/**
 * Runs one `berth` command line and answers its exit code. Output goes to `io`; nothing here
 * calls `process.exit`, so a command's driver is always closed first.
 */
export async function run(argv: readonly string[], io: Io = process): Promise<number> {
  dropOutputOnceReaderLeaves(io.stdout);
  const json = wantsJson(argv);
  const cli: Cli = { io, argv, exitCode: EXIT.ok };
  const out = createOutput(io, json);
  const program = createProgram(cli, {
    out: (text) => io.stdout.write(text),
    // In JSON mode commander's own error text is replaced by the JSON document below. Its text
    // repeats what was typed, so it is escaped like anything else shown.
    err: (text) => {
      if (!json) io.stderr.write(escapeBlock(text));
    },
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return cli.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help or version asked for; `berth jobs` alone shows its help as a usage error.
      if (error.exitCode === 0) return EXIT.ok;
      // The parser's own code (`commander.unknownOption`) is kept as the reason, without its
      // library's name: scripts branch on USAGE_INVALID.
      if (json) out.note(usageDocument(error.message, error.code.replace(/^commander\./, '')));
      return EXIT.usage;
    }
    if (error instanceof UsageError) {
      if (json) out.note(usageDocument(error.message));
      else
        out.note(
          `${out.errColor.red('error:')} ${escapeLine(error.message)}\n(add --help for usage)`,
        );
      return EXIT.usage;
    }
    if (isBerthError(error)) {
      const shown = forOperator(error);
      if (json) out.note(safeJson(shown.toJSON()));
      else {
        out.note(`${out.errColor.red(out.errColor.bold(shown.code))} ${escapeLine(shown.detail)}`);
        out.note(`${out.errColor.bold('fix:')} ${escapeBlock(shown.fix)}`);
      }
      return exitCodeOf(shown);
    }
    // Not a refusal Berth knows: a bug of the CLI's own. Shown whole, so it can be reported.
    const shown = error instanceof Error ? (error.stack ?? error.message) : String(error);
    if (json) out.note(safeJson({ name: 'Error', message: String(error) }));
    else out.note(`berth: unexpected error\n${escapeBlock(shown)}`);
    return EXIT.refused;
  }
}

import { createInterface } from 'node:readline/promises';
import { type Change, confirmationDeclined, confirmationRequired, maskUrl } from './errors.js';
import type { Io } from './output.js';

/** The command line as typed, passwords masked, so a fix can show it again. */
export function typedCommand(argv: readonly string[]): string {
  const shown = argv.map((arg) => {
    const text = /^[a-z]+:\/\//i.test(arg) ? maskUrl(arg) : arg;
    return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
  });
  return ['berth', ...shown].join(' ');
}

/**
 * Lets a change to many jobs go ahead: `--yes` does; on a terminal the operator answers y; with
 * no terminal to ask (a pipe, cron, CI) it is refused, CONFIRMATION_REQUIRED naming `--yes`.
 */
export async function confirmMany(input: {
  io: Io;
  argv: readonly string[];
  yes: boolean;
  change: Change;
  question: string;
}): Promise<void> {
  if (input.yes) return;
  const { io } = input;
  if (io.stdin.isTTY !== true) {
    throw confirmationRequired(input.change, typedCommand(input.argv));
  }
  const prompt = createInterface({ input: io.stdin, output: io.stderr });
  try {
    const answer = await prompt.question(`${input.question} [y/N] `);
    if (/^y(es)?$/i.test(answer.trim())) return;
  } finally {
    prompt.close();
  }
  throw confirmationDeclined(input.change);
}

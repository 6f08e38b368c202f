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

interface Confirmable {
  readonly io: Io;
  readonly argv: readonly string[];
  readonly yes: boolean;
  readonly change: Change;
}

/**
 * Called before the driver is opened: without `--yes` and with no terminal to ask (a pipe, cron,
 * CI) a change to many jobs is refused, CONFIRMATION_REQUIRED naming `--yes`, whether or not
 * anything would match — a script that passes on an empty queue fails the same way on a full one.
 */
export function refuseUnconfirmable(input: Confirmable): void {
  if (input.yes || input.io.stdin.isTTY === true) return;
  throw confirmationRequired(input.change, typedCommand(input.argv));
}

/**
 * Lets a change to many jobs go ahead: `--yes` does; on a terminal the operator answers y; with
 * no terminal to ask it is refused (see {@link refuseUnconfirmable}).
 */
export async function confirmMany(input: Confirmable & { question: string }): Promise<void> {
  if (input.yes) return;
  refuseUnconfirmable(input);
  const { io } = input;
  const prompt = createInterface({ input: io.stdin, output: io.stderr });
  try {
    const answer = await prompt.question(`${input.question} [y/N] `);
    if (/^y(es)?$/i.test(answer.trim())) return;
  } finally {
    prompt.close();
  }
  throw confirmationDeclined(input.change);
}

import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { createProgram } from '../../src/program.js';

/** The real command tree, built as the binary builds it, writing nowhere. */
export function realProgram(): Command {
  const sink = new PassThrough();
  return createProgram(
    { io: { stdout: sink, stderr: sink, stdin: sink, env: {} }, argv: [], exitCode: 0 },
    { out: () => {}, err: () => {} },
  );
}

/** Every command that runs something, as its path under `berth` (`jobs ls`, `stats`, ...). */
export function leafPaths(command: Command, prefix: readonly string[] = []): string[] {
  return command.commands.flatMap((child) => {
    const path = [...prefix, child.name()];
    return child.commands.length === 0 ? [path.join(' ')] : leafPaths(child, path);
  });
}

/** What a `berth ...` text names: the command path, and anything in it the parser would refuse. */
export interface Resolved {
  readonly path: string;
  readonly problems: readonly string[];
}

const findOption = (command: Command, flag: string) => {
  for (let at: Command | null = command; at !== null; at = at.parent) {
    const found = at.options.find((option) => option.long === flag || option.short === flag);
    if (found !== undefined) return found;
  }
  return undefined;
};

/**
 * Walks `tokens` (the words after `berth`) down the real tree: subcommand names descend, every
 * `-flag` must be an option of the command or an ancestor (its value, when it takes one, is
 * skipped), `<placeholder>`s and values fill the command's arguments. The first word that is
 * none of these ends the command (prose follows it in a fix text).
 */
export function resolveCommand(program: Command, tokens: readonly string[]): Resolved {
  const problems: string[] = [];
  let command = program;
  let argumentsLeft = 0;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] ?? '';
    const child = command.commands.find((sub) => sub.name() === token);
    if (child !== undefined && argumentsLeft === 0) {
      command = child;
      argumentsLeft = child.registeredArguments.length;
      continue;
    }
    if (token.startsWith('-')) {
      const option = findOption(command, token.split('=')[0] ?? token);
      if (option === undefined)
        problems.push(`${token} is not an option of berth ${command.name()}`);
      else if ((option.required || option.optional) && !token.includes('=')) index += 1;
      continue;
    }
    if (argumentsLeft > 0 && command.commands.length === 0) {
      argumentsLeft -= 1;
      continue;
    }
    break;
  }
  const path: string[] = [];
  for (let at: Command | null = command; at !== null && at !== program; at = at.parent)
    path.unshift(at.name());
  if (command.commands.length > 0 || command === program) {
    problems.push(`berth ${path.join(' ')} is not a command that runs anything`);
  }
  return { path: path.join(' '), problems };
}

/** Every `berth ...` command written in `text`, as the words after `berth`. */
export function commandsIn(text: string): string[][] {
  return [...text.matchAll(/\bberth((?: +[^\s;,()`'"#]+)+)/g)].map((match) =>
    (match[1] ?? '').trim().split(/ +/),
  );
}

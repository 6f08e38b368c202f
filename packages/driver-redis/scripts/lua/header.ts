import type { Problems } from './problems.js';
import type { Line, LuaFile } from './source.js';

const KEYS_LINE = /^-- KEYS\[1\] /;
const ARGV_LINE = /^-- ARGV\[(\d+)\] /;

/**
 * A script's header lists its one key (`-- KEYS[1] name meaning`) and its fixed ARGV, one
 * `-- ARGV[i] name meaning` line each, numbered 1, 2, 3...; a variable tail is prose
 * (`-- ARGV[8..]`). Every ARGV index its Lua names literally is one of those lines.
 */
export function checkHeader(file: LuaFile, lua: readonly Line[], problems: Problems): void {
  const first = file.header[0] ?? { text: '', file: file.path, line: 1 };
  if (!file.header.some((line) => KEYS_LINE.test(line.text))) {
    problems.fail(
      first,
      'the header lists no KEYS[1] (every script gets the key prefix as KEYS[1])',
    );
  }
  const argv = file.header.flatMap((line) => ARGV_LINE.exec(line.text)?.[1] ?? []);
  if (argv.length === 0 || argv.some((index, position) => Number(index) !== position + 1)) {
    problems.fail(
      first,
      'the header must list ARGV[1], ARGV[2], ... in order, one `-- ARGV[i] name meaning` line each',
    );
  }
  for (const line of lua) {
    const code = line.text.replace(/--.*$/, '');
    for (const match of code.matchAll(/\bARGV\[(\d+)\]/g)) {
      if (Number(match[1]) > argv.length) {
        problems.fail(line, `reads ARGV[${match[1]}], which the header does not list`);
      }
    }
  }
}

// What the Redis server does per job while a queue burns down `jobs` no-op jobs: the commands it
// ran (scripts' own calls included) and the time it spent in each, from INFO commandstats before
// and after the burn-down. One child process per run, systems interleaved round by round,
// medians. The whole server is counted: nothing else may use it. Its own command, never part of
// `pnpm bench` or `pnpm test`:
//   pnpm exec tsx --conditions=@berth/source src/redis-commands.ts --jobs 20000 --rounds 3

import { fileURLToPath } from 'node:url';
import { markdownTable, spreadText } from './format.ts';
import { answerProbe, forkProbe, interleave, largestFirst, probeArgs } from './probe-runs.ts';
import { type CommandResult, measureCommands } from './redis-commands/measure.ts';
import { locateServers } from './servers.ts';
import { spread } from './stats.ts';

const DEFAULT_SYSTEMS = ['berth-redis', 'bullmq'];
const decimal = (value: number): string => value.toFixed(2);
const sum = (values: Readonly<Record<string, number>>): number =>
  Object.values(values).reduce((total, value) => total + value, 0);

async function main(): Promise<void> {
  const args = probeArgs(DEFAULT_SYSTEMS);
  if (args.child !== undefined) return answerProbe(args.child, measureCommands);
  const { jobs } = args;
  const { systems } = args;
  const urls = await locateServers(new Set(['redis']), 9);
  const results = await interleave<CommandResult>({
    systems,
    rounds: args.rounds,
    urls,
    run: (system, tag) => forkProbe(fileURLToPath(import.meta.url), { system, tag, jobs, urls }),
    line: (result) =>
      `${sum(result.calls).toFixed(1)} commands/job, ${(result.usec.evalsha ?? 0).toFixed(1)} µs/job in scripts`,
  });
  const cell = (name: string, pick: (result: CommandResult) => number) =>
    spreadText(spread((results.get(name) ?? []).map(pick)), decimal);
  // By time, not calls: one call of a script's batched ZADD carries a thousand jobs' members.
  const commands = largestFirst(
    [...results.values()].flatMap((all) => all.map((result) => result.usec)),
    0.2,
  );
  console.log(
    `\n${markdownTable(
      ['per processed job: calls (server µs)', ...systems],
      [
        ['commands called', ...systems.map((name) => cell(name, (r) => sum(r.calls)))],
        ...commands.map((command) => [
          command,
          ...systems.map(
            (name) =>
              `${cell(name, (r) => r.calls[command] ?? 0)} (${cell(name, (r) => r.usec[command] ?? 0)})`,
          ),
        ]),
      ],
    )}\n`,
  );
}

void main();

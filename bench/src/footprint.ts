// What each system keeps per waiting job: `jobs` no-op jobs enqueued in batches of 1,000 with no
// worker, then the bytes its store grew by (see footprint/sizes.ts for what each server counts).
// One child process per run, systems interleaved round by round, medians over the rounds. Its own
// command, never part of `pnpm bench` or `pnpm test`:
//   pnpm exec tsx --conditions=@berth/source src/footprint.ts --jobs 20000 --rounds 3

import { fileURLToPath } from 'node:url';
import { type FootprintResult, runFootprint } from './footprint/child.ts';
import { MEASURED_AS } from './footprint/sizes.ts';
import { markdownTable, spreadText, times } from './format.ts';
import { answerProbe, forkProbe, interleave, probeArgs } from './probe-runs.ts';
import { locateServers } from './servers.ts';
import { spread } from './stats.ts';
import { systemNamed } from './systems/registry.ts';

const DEFAULT_SYSTEMS = [
  'berth-memory',
  'berth-pg',
  'graphile-worker',
  'pg-boss',
  'berth-redis',
  'bullmq',
  'berth-nats',
];
/** Berth ÷ peer: the pairs the table compares, round by round. */
const PAIRS = [
  ['berth-pg', 'graphile-worker'],
  ['berth-pg', 'pg-boss'],
  ['berth-redis', 'bullmq'],
] as const;
const REDIS_DB = 9;

const bytes = (value: number): string => `${Math.round(value)}`;

async function main(): Promise<void> {
  const args = probeArgs(DEFAULT_SYSTEMS);
  if (args.child !== undefined) return answerProbe(args.child, runFootprint);
  const { jobs } = args;
  const systems = args.systems.map(systemNamed);
  const urls = await locateServers(new Set(systems.map((system) => system.server)), REDIS_DB);
  const results = await interleave<FootprintResult>({
    systems: systems.map((system) => system.name),
    rounds: args.rounds,
    urls,
    run: (system, tag) =>
      forkProbe(fileURLToPath(import.meta.url), { system, tag, jobs, urls }, [
        ...process.execArgv,
        '--expose-gc',
      ]),
    line: (result) => `${bytes(result.bytesPerJob)} B/job`,
  });
  const of = (name: string) => (results.get(name) ?? []).map((result) => result.bytesPerJob);
  console.log(
    `\n${markdownTable(
      ['system', 'bytes per waiting job', 'RSS per job (memory)', 'measured as'],
      systems.map((system) => [
        system.name,
        spreadText(spread(of(system.name)), bytes),
        system.server === 'memory'
          ? spreadText(spread((results.get(system.name) ?? []).map((r) => r.rssPerJob)), bytes)
          : '–',
        MEASURED_AS[system.server],
      ]),
    )}\n`,
  );
  const pairs = PAIRS.filter(([a, b]) => results.has(a) && results.has(b));
  if (pairs.length > 0) {
    console.log(
      markdownTable(
        ['Berth', 'peer', 'bytes per job ×, per round'],
        pairs.map(([a, b]) => {
          const mine = of(a);
          const theirs = of(b);
          const ratios = mine.map((value, index) => value / (theirs[index] ?? Number.NaN));
          return [a, b, spreadText(spread(ratios), times)];
        }),
      ),
    );
  }
}

void main();

// What the server writes per job while a pg queue enqueues and burns down `jobs` no-op jobs: WAL
// bytes and WAL records by kind (row versions, index entries, locks, commits), read with
// pg_waldump over each phase's stretch of WAL. One child process per run, systems interleaved
// round by round, medians. Needs the server on this machine (its WAL directory readable) and
// nothing else writing to it. Its own command, never part of `pnpm bench` or `pnpm test`:
//   pnpm exec tsx --conditions=@berth/source src/pg-wal.ts --jobs 20000 --rounds 3

import { fileURLToPath } from 'node:url';
import { markdownTable, spreadText } from './format.ts';
import { measureWal, PHASES, type PhaseWal, type WalResult } from './pg-wal/measure.ts';
import { answerProbe, forkProbe, interleave, largestFirst, probeArgs } from './probe-runs.ts';
import { locateServers } from './servers.ts';
import { spread } from './stats.ts';

const DEFAULT_SYSTEMS = ['berth-pg', 'graphile-worker', 'graphile-worker-batched', 'pg-boss'];
const decimal = (value: number): string => value.toFixed(2);

async function main(): Promise<void> {
  const args = probeArgs(DEFAULT_SYSTEMS);
  if (args.child !== undefined) return answerProbe(args.child, measureWal);
  const { jobs } = args;
  const { systems } = args;
  const urls = await locateServers(new Set(['pg']), 9);
  const results = await interleave<WalResult>({
    systems,
    rounds: args.rounds,
    urls,
    run: (system, tag) => forkProbe(fileURLToPath(import.meta.url), { system, tag, jobs, urls }),
    line: (result) =>
      `WAL B/job: enqueue ${result.enqueue.bytesPerJob.toFixed(0)}, process ${result.process.bytesPerJob.toFixed(0)}`,
  });
  for (const phase of PHASES) {
    const runs = new Map([...results].map(([name, all]) => [name, all.map((r) => r[phase])]));
    const cell = (name: string, pick: (wal: PhaseWal) => number) =>
      spreadText(spread((runs.get(name) ?? []).map(pick)), decimal);
    const kinds = largestFirst(
      [...runs.values()].flatMap((all) => all.map((wal) => wal.perJob)),
      0.05,
    );
    console.log(
      `\n${markdownTable(
        [`per job, ${phase}`, ...systems],
        [
          ['WAL bytes', ...systems.map((name) => cell(name, (wal) => wal.bytesPerJob))],
          ...kinds.map((kind) => [
            kind,
            ...systems.map((name) => cell(name, (wal) => wal.perJob[kind] ?? 0)),
          ]),
        ],
      )}\n`,
    );
  }
}

void main();

import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Driver } from '@berth/core';
import { openPair } from './driver-pair.ts';
import { markdownTable, millis, spreadText } from './format.ts';
import { cleanUp, locateServers } from './servers.ts';
import { percentile, spread } from './stats.ts';
import type { ServerKind } from './systems/types.ts';

/** The systems a two-driver latency run can take, by bench name. */
export const PAIR_SYSTEMS: Readonly<Record<string, ServerKind>> = {
  'berth-memory': 'memory',
  'berth-pg': 'pg',
  'berth-redis': 'redis',
  'berth-nats': 'nats',
};

export interface PairRounds<Mode extends string, Figure> {
  readonly systems: readonly string[];
  readonly modes: readonly Mode[];
  readonly rounds: number;
  /** One system's figure in one mode, measured on a fresh pair (worker's driver first). */
  readonly measure: (pair: [Driver, Driver], mode: Mode) => Promise<Figure>;
  /** The line printed for a round's figure. */
  readonly describe: (figure: Figure) => string;
}

/**
 * Runs `measure` for each system and mode, round after round (interleaved: every system once a
 * round), each on a fresh pair of drivers over a fresh schema / prefix, removed after. Answers
 * each `"<system> <mode>"`'s figures, one per round.
 */
export async function pairRounds<Mode extends string, Figure>(
  run: PairRounds<Mode, Figure>,
): Promise<Map<string, Figure[]>> {
  const servers = new Set(run.systems.map((name) => PAIR_SYSTEMS[name] ?? 'memory'));
  const urls = await locateServers(servers, 9);
  const figures = new Map<string, Figure[]>();
  for (let round = 1; round <= run.rounds; round++) {
    for (const name of run.systems) {
      const server = PAIR_SYSTEMS[name];
      if (server === undefined) throw new Error(`no system "${name}"`);
      for (const mode of run.modes) {
        const tag = randomBytes(4).toString('hex');
        const pair = await openPair(server, urls, tag);
        try {
          const figure = await run.measure(pair, mode);
          figures.set(`${name} ${mode}`, [...(figures.get(`${name} ${mode}`) ?? []), figure]);
          console.log(
            `round ${round} ${name.padEnd(13)} ${mode.padEnd(8)} ${run.describe(figure)}`,
          );
        } finally {
          await Promise.all(pair.map((driver) => driver.close()));
          await cleanUp(server, urls, tag);
        }
      }
    }
  }
  return figures;
}

/** A table cell: the median of the rounds' `pick`, with their min–max, in ms. */
export const roundsCell = <Figure>(
  figures: Map<string, Figure[]>,
  key: string,
  pick: (figure: Figure) => number,
): string => spreadText(spread((figures.get(key) ?? []).map(pick)), millis);

/** The command line of a two-driver latency bench. */
export interface PairArgs {
  readonly systems: readonly string[];
  readonly rounds: number;
  /** Samples a round in the fast mode (`--samples`). */
  readonly samples: number;
  /** Samples a round in the slow mode (its own option: each sample waits out a poll). */
  readonly slowSamples: number;
}

/** Reads `--samples`, the slow mode's `--<slowOption>`, `--rounds` and `--systems`. */
export function readPairArgs(
  slowOption: string,
  defaults: { readonly samples: number; readonly slowSamples: number },
): PairArgs {
  const { values } = parseArgs({
    options: {
      samples: { type: 'string', default: String(defaults.samples) },
      [slowOption]: { type: 'string', default: String(defaults.slowSamples) },
      rounds: { type: 'string', default: '3' },
      systems: { type: 'string', default: Object.keys(PAIR_SYSTEMS).join(',') },
    },
  });
  return {
    systems: String(values.systems).split(','),
    rounds: Number(values.rounds),
    samples: Number(values.samples),
    slowSamples: Number(values[slowOption]),
  };
}

/** A latency figure: the p50 and p95 of one round's samples, ms. */
export interface Latency {
  readonly p50: number;
  readonly p95: number;
}

export function latencyOf(took: readonly number[]): Latency {
  const sorted = [...took].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
}

export const describeLatency = (figure: Latency): string =>
  `p50 ${millis(figure.p50)} ms, p95 ${millis(figure.p95)} ms`;

/** The table of each system's p50 and p95 in each mode: `[mode, p50 heading, p95 heading]`. */
export function latencyTable(
  figures: Map<string, Latency[]>,
  systems: readonly string[],
  modes: readonly (readonly [mode: string, p50: string, p95: string])[],
): string {
  return markdownTable(
    ['system', ...modes.flatMap(([, p50, p95]) => [p50, p95])],
    systems.map((name) => [
      name,
      ...modes.flatMap(([mode]) => [
        roundsCell(figures, `${name} ${mode}`, (f) => f.p50),
        roundsCell(figures, `${name} ${mode}`, (f) => f.p95),
      ]),
    ]),
  );
}

/** A mode of a latency bench and its two table headings. */
export type LatencyMode<Mode extends string> = readonly [mode: Mode, p50: string, p95: string];

/** A two-driver latency bench: a fast mode (as shipped) and a slow one (its fallback). */
export interface LatencyBench<Mode extends string> {
  /** The option naming the slow mode's samples a round (`--<slowOption>`). */
  readonly slowOption: string;
  readonly defaults: { readonly samples: number; readonly slowSamples: number };
  /** The fast mode first. */
  readonly modes: readonly [LatencyMode<Mode>, LatencyMode<Mode>];
  /** Times `samples` samples of `mode` on a fresh pair (worker's driver first), ms. */
  sample(pair: [Driver, Driver], mode: Mode, samples: number): Promise<number[]>;
}

/** Reads the command line, runs the rounds and prints each system's p50 and p95 per mode. */
export async function runLatencyBench<Mode extends string>(
  bench: LatencyBench<Mode>,
): Promise<void> {
  const args = readPairArgs(bench.slowOption, bench.defaults);
  const [[fast]] = bench.modes;
  const figures = await pairRounds({
    systems: args.systems,
    modes: bench.modes.map(([mode]) => mode),
    rounds: args.rounds,
    measure: async (pair, mode) =>
      latencyOf(await bench.sample(pair, mode, mode === fast ? args.samples : args.slowSamples)),
    describe: describeLatency,
  });
  console.log(`\n${latencyTable(figures, args.systems, bench.modes)}\n`);
}

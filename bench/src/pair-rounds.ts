import { randomBytes } from 'node:crypto';
import type { Driver } from '@berth/core';
import { openPair } from './driver-pair.ts';
import { millis, spreadText } from './format.ts';
import { cleanUp, locateServers } from './servers.ts';
import { spread } from './stats.ts';
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

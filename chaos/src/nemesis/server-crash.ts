import { now } from '../ledger/events.ts';
import type { ChaosServer } from '../servers/server.ts';
import type { Exclusive } from './exclusive.ts';
import { at } from './timeline.ts';

/** One crash: when the server went down and when it accepted clients again. */
export interface Crash {
  readonly down: number;
  readonly up: number;
}

/** Crashes the server at each instant and restarts it `downMs` later. */
export async function crashServer(input: {
  readonly server: ChaosServer;
  readonly start: number;
  readonly atMs: readonly number[];
  readonly downMs: number;
  readonly signal: AbortSignal;
  readonly crashes: Crash[];
  readonly exclusive: Pick<Exclusive, 'run'>;
}): Promise<void> {
  for (const atMs of input.atMs) {
    await at(input.start, atMs, input.signal, () =>
      input.exclusive.run(async () => {
        const down = now();
        await input.server.crash();
        await new Promise((resolve) => setTimeout(resolve, input.downMs));
        await input.server.restart();
        input.crashes.push({ down, up: now() });
      }),
    );
  }
}

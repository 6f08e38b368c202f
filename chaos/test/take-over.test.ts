import { describe, expect, it } from 'vitest';
import type { LedgerEvent } from '../src/ledger/events.ts';
import { awaitTakeOver, notTakenOver } from '../src/nemesis/take-over.ts';
import { event } from './ledger-fixture.ts';

const ISLAND = 100;
const OTHER = 200;
const CUT = 10_000;
const held: LedgerEvent[] = [event('start', CUT - 50, 1, {}, ISLAND)];
const takenElsewhere = [...held, event('start', CUT + 1_600, 2, {}, OTHER)];
const takenBackByIsland = [...held, event('start', CUT + 5_000, 2, {}, ISLAND)];

const wait = (read: () => Promise<readonly LedgerEvent[]>, capMs: number) =>
  awaitTakeOver({
    read,
    pid: ISLAND,
    cut: CUT,
    capMs,
    pollMs: 5,
    signal: new AbortController().signal,
  });

describe('a long cut waits for its jobs to be taken over', () => {
  it('counts a held job no other process started again as not taken over', () => {
    expect(notTakenOver(held, ISLAND, CUT)).toBe(1);
    expect(notTakenOver(takenBackByIsland, ISLAND, CUT)).toBe(1);
    expect(notTakenOver(takenElsewhere, ISLAND, CUT)).toBe(0);
  });

  it('keeps the cut until another process starts the held job, however late', async () => {
    let reads = 0;
    const left = await wait(async () => (++reads < 4 ? held : takenElsewhere), 10_000);
    expect(left).toBe(0);
    expect(reads).toBe(4);
  });

  it('gives up at the cap and answers how many were never taken over', async () => {
    expect(await wait(async () => held, 30)).toBe(1);
  });

  it('does not wait for a worker that held nothing at the cut', async () => {
    let reads = 0;
    const left = await wait(async () => {
      reads++;
      return [event('start', CUT + 10, 1, {}, ISLAND)];
    }, 10_000);
    expect(left).toBe(0);
    expect(reads).toBe(1);
  });
});

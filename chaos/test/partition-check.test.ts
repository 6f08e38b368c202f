import { describe, expect, it } from 'vitest';
import { checkPartitions, partitionsIdle } from '../src/check/partition.ts';
import type { LedgerEvent } from '../src/ledger/events.ts';
import type { Partition } from '../src/nemesis/partition.ts';
import { event } from './ledger-fixture.ts';

// Each finding of a cut, shown on a ledger made to hold it: the checker must be able to fail.
const ISLAND = 100;
const OTHER = 200;
const LEASE_MS = 1_500;
const CUT = 10_000;
const WINDOW = { ms: 4_000 };
const cut: Partition = {
  pid: ISLAND,
  cut: CUT,
  healed: CUT + WINDOW.ms,
  blocked: true,
  reachable: CUT + WINDOW.ms + 300,
};

/** The island ran the job under claim 1 up to the cut; another process took it over after. */
const heldThenTakenOver = (afterCut: LedgerEvent[]): LedgerEvent[] =>
  [
    event('start', CUT - 50, 1, {}, ISLAND),
    event('step-got', CUT - 30, 1, { step: 'a', token: '1/100/1' }, ISLAND),
    ...afterCut,
    event('start', CUT + 1_300, 2, {}, OTHER),
    event('end', CUT + 1_350, 2, { ok: true }, OTHER),
    event('completed', CUT + 1_360, 2, {}, OTHER),
  ].sort((a, b) => a.t - b.t);

const idle = (events: LedgerEvent[]) =>
  partitionsIdle(checkPartitions([cut], events), [WINDOW], LEASE_MS);

describe('partition findings', () => {
  it('counts a held attempt that ended well just after the cut, its ack never landing, as acted on', () => {
    const events = heldThenTakenOver([event('end', CUT + 4, 1, { ok: true }, ISLAND)]);
    const [found] = checkPartitions([cut], events);
    expect(found).toMatchObject({ held: 1, reclaimed: 1, refused: 0, leaseLost: 0, unlanded: 1 });
    expect(idle(events)).toEqual([]);
  });

  it('does not count an ended attempt whose ack landed', () => {
    const events = heldThenTakenOver([
      event('end', CUT + 4, 1, { ok: true }, ISLAND),
      event('completed', CUT + 4_500, 1, {}, ISLAND),
    ]);
    expect(checkPartitions([cut], events)[0]?.unlanded).toBe(0);
  });

  it('passes a cut whose worker aborted its held attempt on a lost lease', () => {
    const events = heldThenTakenOver([event('lease-lost', CUT + 600, 1, {}, ISLAND)]);
    expect(idle(events)).toEqual([]);
  });

  it('fails a cut whose held attempt recorded nothing after it, and says so', () => {
    expect(idle(heldThenTakenOver([]))).toEqual([
      'cut 1 (4000 ms): the cut-off worker neither lost a lease, had a write refused, nor had an ack not land (its held attempts after the cut: 1 recorded nothing)',
    ]);
  });

  it('fails a cut whose held attempt ended with an error, naming the error and when', () => {
    const events = heldThenTakenOver([
      event('end', CUT + 9_800, 1, { ok: false, error: 'DRIVER_UNAVAILABLE' }, ISLAND),
    ]);
    expect(idle(events)).toEqual([
      'cut 1 (4000 ms): the cut-off worker neither lost a lease, had a write refused, nor had an ack not land (its held attempts after the cut: 1 ended DRIVER_UNAVAILABLE (+9800 ms))',
    ]);
  });

  it('fails a cut that caught no job', () => {
    const events = [
      event('start', CUT - 50, 1, {}, ISLAND),
      event('end', CUT - 10, 1, { ok: true }, ISLAND),
      event('completed', CUT - 5, 1, {}, ISLAND),
    ];
    expect(idle(events)).toEqual([
      'cut 1 (4000 ms): none of its 0 jobs was re-claimed',
      'cut 1 (4000 ms): the cut-off worker neither lost a lease, had a write refused, nor had an ack not land (its held attempts after the cut: nothing)',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { createManualClock } from '../src/index.js';
import { createSerialLoop } from '../src/runtime/serial-loop.js';
import { gate, settleTicks } from './support/runtime.js';

describe('serial loop: start and stop take turns', () => {
  it('a start while a stop is finishing runs one loop, and a stopped loop leaves no tick behind', async () => {
    const clock = createManualClock();
    let runs = 0;
    let running = 0;
    let overlapped = false;
    let slow = gate();
    const loop = createSerialLoop({
      clock,
      intervalMs: 100,
      onError: () => {},
      task: async () => {
        runs += 1;
        running += 1;
        if (running > 1) overlapped = true;
        await slow.promise;
        running -= 1;
      },
    });
    slow.open();
    await loop.start();
    expect(runs).toBe(1);
    // A tick is in flight when the stop comes, and a start comes before the stop has finished.
    slow = gate();
    await clock.advance(100);
    expect(runs).toBe(2);
    const stopping = loop.stop();
    const starting = loop.start();
    slow.open();
    await stopping;
    await starting;
    expect(runs).toBe(3);
    // One loop: one run per interval, never two.
    await clock.advance(100);
    await settleTicks();
    expect(runs).toBe(4);
    await clock.advance(100);
    await settleTicks();
    expect(runs).toBe(5);
    await loop.stop();
    await clock.advance(1_000);
    await settleTicks();
    expect(runs).toBe(5);
    expect(clock.pending()).toBe(0);
    expect(overlapped).toBe(false);
  });

  it('runs onStopped inside the stop, before a start queued behind it', async () => {
    const clock = createManualClock();
    const log: string[] = [];
    const loop = createSerialLoop({
      clock,
      intervalMs: 100,
      onError: () => {},
      task: async () => {
        log.push('tick');
      },
      onStopped: async () => {
        await settleTicks();
        log.push('stopped');
      },
    });
    await loop.start();
    const stopping = loop.stop();
    const starting = loop.start();
    await Promise.all([stopping, starting]);
    expect(log).toEqual(['tick', 'stopped', 'tick']);
  });

  it("a stop during the start's check waits for it and then stops: no tick runs after the stop", async () => {
    const clock = createManualClock();
    let runs = 0;
    const check = gate();
    const loop = createSerialLoop({
      clock,
      intervalMs: 100,
      onError: () => {},
      task: async () => {
        runs += 1;
      },
    });
    const starting = loop.start(() => check.promise);
    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await settleTicks();
    expect(stopped).toBe(false);
    check.open();
    await Promise.all([starting, stopping]);
    const after = runs;
    await clock.advance(1_000);
    await settleTicks();
    expect(runs).toBe(after);
    expect(clock.pending()).toBe(0);
  });
});

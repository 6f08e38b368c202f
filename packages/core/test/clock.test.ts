import { describe, expect, it } from 'vitest';
import { createManualClock, sleepFor } from '../src/index.js';

describe('the manual clock', () => {
  it('starts where it is told and moves only when advanced', async () => {
    const clock = createManualClock(1_000);
    expect(clock.now()).toBe(1_000);
    await clock.advance(250);
    expect(clock.now()).toBe(1_250);
  });

  it('never moves backwards', async () => {
    const clock = createManualClock(1_000);
    await clock.set(500);
    expect(clock.now()).toBe(1_000);
  });

  it('fires due timers in due order as it moves', async () => {
    const clock = createManualClock(0);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('late'), 300);
    clock.setTimeout(() => fired.push('early'), 100);
    clock.setTimeout(() => fired.push('never'), 1_000);
    await clock.advance(300);
    expect(fired).toEqual(['early', 'late']);
    expect(clock.pending()).toBe(1);
  });

  it('does not fire a cancelled timer', async () => {
    const clock = createManualClock(0);
    let fired = false;
    const cancel = clock.setTimeout(() => {
      fired = true;
    }, 10);
    cancel();
    await clock.advance(20);
    expect(fired).toBe(false);
  });

  it('drives sleepFor, and an abort rejects the sleep', async () => {
    const clock = createManualClock(0);
    let woke = false;
    const sleeping = sleepFor(clock, 50).then(() => {
      woke = true;
    });
    await clock.advance(49);
    expect(woke).toBe(false);
    await clock.advance(1);
    await sleeping;
    expect(woke).toBe(true);

    const controller = new AbortController();
    const aborted = sleepFor(clock, 50, controller.signal);
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
  });

  it('rejects a negative advance', async () => {
    await expect(createManualClock(0).advance(-1)).rejects.toThrow(TypeError);
  });
});

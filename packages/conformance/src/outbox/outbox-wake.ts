import { expect } from 'vitest';
import type { OutboxKitCase } from './describe-outbox-store.js';

/** A promise that settles once `listener` has been called, or false after `ms`. */
function called(ms: number) {
  let resolve: (value: boolean) => void = () => {};
  const promise = new Promise<boolean>((settle) => {
    resolve = settle;
  });
  const timer = setTimeout(() => resolve(false), ms);
  let subscribed = false;
  return {
    promise,
    /** Counts only calls after `arm()`: a call at subscribe is a look, not a wake-up. */
    arm: () => {
      subscribed = true;
    },
    listener: () => {
      if (!subscribed) return;
      clearTimeout(timer);
      resolve(true);
    },
  };
}

/** Waits `ms` of real time. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A store that can push wake-ups (`onStaged`) calls them when rows are staged ("may have been":
 * a call at subscribe, to look once, is allowed), and never once stopped — also while another
 * listener of the same store listens on.
 */
export const outboxWakeCases: readonly OutboxKitCase[] = [
  {
    title:
      'a store with onStaged calls the listener once rows are staged and committed, and never after its stop, while another listener goes on',
    run: async ({ store, stageJobs }) => {
      if (store.onStaged === undefined) return;
      let stoppedCalls = 0;
      const stop = await store.onStaged(() => {
        stoppedCalls += 1;
      });
      await stop();
      stoppedCalls = 0;
      const woken = called(5_000);
      const stopLive = await store.onStaged(woken.listener);
      woken.arm();
      try {
        await stageJobs(1);
        expect(await woken.promise).toBe(true);
        await pause(200);
        expect(stoppedCalls).toBe(0);
      } finally {
        await stopLive();
      }
    },
  },
];

import { createManualClock, isBerthError } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { createMemoryDriver } from '../src/index.js';
import { T0 } from './support.js';

describe('sameStoreAs', () => {
  it('opens the same in-process store on its own clock: each sees the other’s rows and events', async () => {
    const first = createMemoryDriver({ clock: createManualClock(T0 + 1_000) });
    const second = createMemoryDriver({ clock: createManualClock(T0), sameStoreAs: first });
    const { id } = await first.enqueue({ name: 'task' });
    expect((await second.get(id))?.createdAt).toBe(T0 + 1_000);
    const event = await second.events.publish('paid', {});
    expect(event.publishedAt).toBe(T0);
    expect(await first.events.list()).toEqual([event]);
  });

  it('closing one leaves the other open, with its wake subscriptions', async () => {
    const first = createMemoryDriver();
    const second = createMemoryDriver({ sameStoreAs: first });
    const woke: string[] = [];
    await second.subscribe?.(['mail'], (queue) => woke.push(queue));
    await first.subscribe?.(['mail'], () => woke.push('closed one'));
    await first.close();
    await second.enqueue({ name: 'send', queue: 'mail' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(woke).toEqual(['mail']);
    await expect(first.list()).rejects.toMatchObject({ code: 'DRIVER_CLOSED' });
    expect((await second.list()).jobs).toHaveLength(1);
  });

  it('anything but a memory driver is CONFIG_INVALID naming sameStoreAs', () => {
    const first = createMemoryDriver();
    let caught: unknown;
    try {
      createMemoryDriver({ sameStoreAs: { ...first } });
    } catch (error) {
      caught = error;
    }
    expect(isBerthError(caught, 'CONFIG_INVALID')).toBe(true);
    if (isBerthError(caught, 'CONFIG_INVALID')) expect(caught.meta.option).toBe('sameStoreAs');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { callListener, callListenerLater } from '../src/driver.js';

const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(warning.message);
process.on('warning', onWarning);
afterEach(() => {
  warnings.length = 0;
});

const warned = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("a driver's calls to the app's listeners", () => {
  it('a listener that throws is a warning naming it, and the caller goes on', async () => {
    let after = false;
    callListener('a wake listener', () => {
      throw new Error('boom');
    });
    after = true;
    await warned();
    expect(after).toBe(true);
    expect(warnings).toEqual(['berth: a wake listener threw: Error: boom']);
  });

  it('a later call runs after the caller, on a microtask, and not once the listener left', async () => {
    const order: string[] = [];
    let listening = true;
    callListenerLater(
      'a settle listener',
      () => listening,
      () => order.push('first'),
    );
    callListenerLater(
      'a settle listener',
      () => listening,
      () => order.push('second'),
    );
    order.push('caller');
    listening = false;
    await Promise.resolve();
    expect(order).toEqual(['caller']);
    listening = true;
    callListenerLater(
      'a settle listener',
      () => listening,
      () => order.push('third'),
    );
    await Promise.resolve();
    expect(order).toEqual(['caller', 'third']);
  });
});

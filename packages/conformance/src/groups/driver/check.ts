import { expect } from 'vitest';
import type { KitCase, KitGroup } from '../../kit.js';

const checkCases: readonly KitCase[] = [
  {
    title: 'check resolves once the backend is reachable and holds everything the driver needs',
    run: async ({ driver }) => {
      await expect(driver.check()).resolves.toBeUndefined();
      await driver.enqueue({ name: 'task' });
      await expect(driver.check()).resolves.toBeUndefined();
    },
  },
  {
    title: 'check changes nothing: the queue reads the same before and after it',
    run: async ({ driver }) => {
      await driver.enqueue({ name: 'task' });
      const before = await driver.list();
      const stats = await driver.stats();
      await driver.check();
      expect(await driver.list()).toStrictEqual(before);
      expect(await driver.stats()).toStrictEqual(stats);
    },
  },
];

export const checkGroup: KitGroup = { name: 'check', cases: checkCases };

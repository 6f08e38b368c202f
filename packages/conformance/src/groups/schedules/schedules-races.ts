import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import { createSchedule, scheduleWrite } from './schedule-fixtures.js';

/** Siblings (two processes of one deployment) racing one schedule: exactly one write lands. */
export const scheduleRaceCases: readonly KitCase[] = [
  {
    title:
      'two instances creating one schedule at once: exactly one put lands, the others answer undefined, and every instance reads the winner',
    run: async ({ driver, sibling, t0 }) => {
      const other = await sibling();
      const answers = await Promise.all(
        [driver, other, driver, other].map((instance, index) =>
          instance.schedules.put(scheduleWrite({ name: 'n', nextAt: t0, payload: index }), 0),
        ),
      );
      const landed = answers.filter((answer) => answer !== undefined);
      expect(landed).toHaveLength(1);
      expect(await other.schedules.get('n')).toEqual(landed[0]);
      expect(await driver.schedules.get('n')).toEqual(landed[0]);
    },
  },
  {
    title:
      'an update racing a remove at one revision: exactly one lands, and the store shows that one',
    run: async ({ driver, sibling, t0 }) => {
      const other = await sibling();
      for (let round = 0; round < 5; round += 1) {
        const name = `n${round}`;
        await createSchedule(driver, { name, nextAt: t0 });
        const [updated, removed] = await Promise.all([
          driver.schedules.put(scheduleWrite({ name, nextAt: t0 + 1_000 }), 1),
          other.schedules.remove(name, 1),
        ]);
        expect([updated !== undefined, removed]).toContainEqual(true);
        expect(updated !== undefined && removed).toBe(false);
        expect(await other.schedules.get(name)).toEqual(removed ? undefined : updated);
      }
    },
  },
  {
    title: 'a schedule put on one instance is in the other instance’s list and due at once',
    run: async ({ driver, sibling, t0 }) => {
      const other = await sibling();
      const stored = await createSchedule(driver, { name: 'n', nextAt: t0 });
      expect((await other.schedules.list()).schedules).toEqual([stored]);
      expect(await other.schedules.due(t0, 10)).toEqual([stored]);
      const moved = await other.schedules.put(scheduleWrite({ name: 'n', nextAt: t0 + 5 }), 1);
      expect(await driver.schedules.due(t0, 10)).toEqual([]);
      expect(await driver.schedules.due(t0 + 5, 10)).toEqual([moved]);
    },
  },
];

import type { Fence } from '../contract/records.js';
import { screenFence } from './settle.js';
import { screenArray, screening, screenObject } from './values.js';

/** extendMany's items: an array without holes of fences, each screened as `extend`'s. */
export const screenExtendItems = screening('items', (items: readonly Fence[]): Fence[] => {
  const given = screenArray('items', items);
  const screened: Fence[] = [];
  for (let index = 0; index < given.length; index += 1) {
    screened.push(screenFence(screenObject(`items[${index}]`, given[index]) as unknown as Fence));
  }
  return screened;
});

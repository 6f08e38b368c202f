import type { Store } from './store.js';

/** Named monotonic marks: a mark only rises. */

export function getMark(store: Store, name: string): number | undefined {
  return store.marks.get(name);
}

export function advanceMark(store: Store, name: string, value: number): boolean {
  const current = store.marks.get(name);
  if (current !== undefined && current >= value) return false;
  store.marks.set(name, value);
  return true;
}

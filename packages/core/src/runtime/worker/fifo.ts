/** A first-in first-out queue whose shift is O(1): the claimed jobs waiting for a worker slot. */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The oldest item, taken out; undefined when empty. */
  shift(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head];
    this.head += 1;
    if (this.head === this.items.length) this.clear();
    return item;
  }

  /** Every item, oldest first, taken out. */
  drain(): T[] {
    const all = this.items.slice(this.head);
    this.clear();
    return all;
  }

  private clear(): void {
    this.items = [];
    this.head = 0;
  }
}

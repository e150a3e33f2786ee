/** An item a {@link BinaryHeap} can hold: the heap keeps the item's position in it, so removal is O(log n). */
export interface HeapItem {
  /** The item's index in the heap's array; -1 while it is in no heap. */
  heapIndex: number;
}

/**
 * A binary min-heap under `before` (true when `a` must come out before `b`): push, pop and remove
 * of any held item in O(log n), peek in O(1). An item is in at most one heap at a time.
 */
export class BinaryHeap<T extends HeapItem> {
  readonly #items: T[] = [];
  readonly #before: (a: T, b: T) => boolean;

  constructor(before: (a: T, b: T) => boolean) {
    this.#before = before;
  }

  /** How many items the heap holds. */
  get size(): number {
    return this.#items.length;
  }

  /** The item that would come out next, left in place. */
  /** Every item, in no particular order (a copy: changing the heap does not change it). */
  items(): T[] {
    return [...this.#items];
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  /** Adds `item` (which must be in no heap). */
  push(item: T): void {
    item.heapIndex = this.#items.length;
    this.#items.push(item);
    this.#siftUp(item.heapIndex);
  }

  /** Takes out the item that comes first. */
  pop(): T | undefined {
    const first = this.#items[0];
    if (first !== undefined) this.remove(first);
    return first;
  }

  /** Takes `item` out, wherever it sits; a no-op when the heap does not hold it. */
  remove(item: T): void {
    const index = item.heapIndex;
    if (this.#items[index] !== item) return;
    const last = this.#items.pop() as T;
    item.heapIndex = -1;
    if (last === item) return;
    this.#place(last, index);
    this.#siftUp(index);
    this.#siftDown(last.heapIndex);
  }

  #place(item: T, index: number): void {
    this.#items[index] = item;
    item.heapIndex = index;
  }

  #siftUp(start: number): void {
    const items = this.#items;
    const item = items[start] as T;
    let index = start;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = items[parentIndex] as T;
      if (!this.#before(item, parent)) break;
      this.#place(parent, index);
      index = parentIndex;
    }
    if (index !== start) this.#place(item, index);
  }

  #siftDown(start: number): void {
    const items = this.#items;
    const length = items.length;
    const item = items[start] as T;
    let index = start;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      const child = right < length && this.#before(items[right] as T, items[left] as T) ? right : left;
      if (!this.#before(items[child] as T, item)) break;
      this.#place(items[child] as T, index);
      index = child;
    }
    if (index !== start) this.#place(item, index);
  }
}

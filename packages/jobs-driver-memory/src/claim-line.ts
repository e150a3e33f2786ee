import { BinaryHeap, type HeapItem } from './binary-heap.js';

/**
 * A priority queue under `before` with the same operations as {@link BinaryHeap}, for items that
 * mostly arrive in order (rows enqueued one after another: same priority, rising runAt and
 * enqueue order). An item that comes after the last one in line is appended to a sorted run, O(1);
 * any other goes to a heap. The next item is the earlier of the run's head and the heap's top, so
 * a queue drained in enqueue order never pays the heap's O(log n) per item. An item is in at most
 * one line at a time; its `heapIndex` is its position in whichever part holds it.
 */
export class ClaimLine<T extends HeapItem> {
  readonly #before: (a: T, b: T) => boolean;
  readonly #heap: BinaryHeap<T>;
  /** The sorted run; removed items leave `undefined` behind until the head passes them. */
  #run: (T | undefined)[] = [];
  #head = 0;
  #inRun = 0;

  constructor(before: (a: T, b: T) => boolean) {
    this.#before = before;
    this.#heap = new BinaryHeap(before);
  }

  /** How many items the line holds. */
  get size(): number {
    return this.#inRun + this.#heap.size;
  }

  /** Every item, in no particular order (a view: do not change the line while iterating). */
  *values(): IterableIterator<T> {
    for (let index = this.#head; index < this.#run.length; index += 1) {
      const item = this.#run[index];
      if (item !== undefined) yield item;
    }
    yield* this.#heap.values();
  }

  /** Every item, in no particular order (a copy: changing the line does not change it). */
  items(): T[] {
    return [...this.values()];
  }

  /** Adds `item` (which must be in no line or heap). */
  push(item: T): void {
    const last = this.#inRun > 0 ? this.#run[this.#run.length - 1] : undefined;
    if (this.#inRun === 0 || (last !== undefined && !this.#before(item, last))) {
      if (this.#inRun === 0) this.#reset();
      item.heapIndex = this.#run.length;
      this.#run.push(item);
      this.#inRun += 1;
      return;
    }
    this.#heap.push(item);
  }

  /** The item that would come out next, left in place. */
  peek(): T | undefined {
    const head = this.#runHead();
    const top = this.#heap.peek();
    if (head === undefined) return top;
    return top !== undefined && this.#before(top, head) ? top : head;
  }

  /** Takes out the item that comes first. */
  pop(): T | undefined {
    const first = this.peek();
    if (first !== undefined) this.remove(first);
    return first;
  }

  /** Takes `item` out, wherever it sits; a no-op when the line does not hold it. */
  remove(item: T): void {
    const index = item.heapIndex;
    if (index >= this.#head && this.#run[index] === item) {
      this.#run[index] = undefined;
      item.heapIndex = -1;
      this.#inRun -= 1;
      if (this.#inRun === 0) this.#reset();
      // Trailing holes go at once, so the next in-order push compares with a live last item.
      else while (this.#run[this.#run.length - 1] === undefined) this.#run.pop();
      return;
    }
    this.#heap.remove(item);
  }

  /** The run's first item, dropping the holes removals left before it. */
  #runHead(): T | undefined {
    if (this.#inRun === 0) return undefined;
    while (this.#run[this.#head] === undefined) this.#head += 1;
    // Let go of the passed part now and then (positions move, so every kept item is renumbered).
    if (this.#head > 1024 && this.#head * 2 > this.#run.length) {
      this.#run = this.#run.slice(this.#head);
      this.#head = 0;
      this.#run.forEach((kept, index) => {
        if (kept !== undefined) kept.heapIndex = index;
      });
    }
    return this.#run[this.#head];
  }

  #reset(): void {
    this.#run = [];
    this.#head = 0;
  }
}

/**
 * A string-keyed map for a collection that lives as long as its process while its entries come
 * and go per job (the attempts a worker holds, the awaiters of one job): `get`, `set`, `delete`,
 * `size`, `values`, `keys`, like a `Map<string, V>` whose values are objects.
 *
 * Why not a `Map`: V8 rebuilds a `Map`'s or `Set`'s hash table every few insertions under that
 * churn, and links each obsolete table to its successor (for iterators still open on it), each
 * still holding the entries it held. Once one obsolete table sits in the old generation, every
 * minor GC keeps that whole chain alive — and with it every value any of its tables named, with
 * all they reference — until a full GC: in a memory-driver drain, about 2 KB of every finished
 * job's objects were copied and promoted instead of dying young (minor GCs 3–4× longer). This one
 * is backed by a null-prototype dictionary object, whose deleted slots are reused in place and
 * whose replaced tables point nowhere.
 *
 * Iteration order is insertion order for keys that are not array indices (job ids, tokens);
 * nothing here depends on it.
 */
export class ChurnMap<V extends object> {
  #entries: Record<string, V> = Object.create(null) as Record<string, V>;
  #size = 0;

  /** How many entries it holds. */
  get size(): number {
    return this.#size;
  }

  get(key: string): V | undefined {
    return this.#entries[key];
  }

  has(key: string): boolean {
    return this.#entries[key] !== undefined;
  }

  /** Sets `key` to `value`. */
  set(key: string, value: V): this {
    if (this.#entries[key] === undefined) this.#size += 1;
    this.#entries[key] = value;
    return this;
  }

  /** Removes `key`; true when it was there. */
  delete(key: string): boolean {
    if (this.#entries[key] === undefined) return false;
    delete this.#entries[key];
    this.#size -= 1;
    return true;
  }

  /** The values, as an array taken now (later writes do not change it). */
  values(): V[] {
    return Object.values(this.#entries);
  }

  /** The keys, as an array taken now. */
  keys(): string[] {
    return Object.keys(this.#entries);
  }
}

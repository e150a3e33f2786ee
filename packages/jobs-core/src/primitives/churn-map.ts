/** Writes after which a {@link ChurnMap} moves its entries to a fresh `Map`. */
const WRITES_PER_GENERATION = 1_024;

/**
 * A string-keyed map for a collection that lives as long as its process while its entries come
 * and go per job (the attempts a worker holds, the awaiters of one job): `get`, `set`, `delete`,
 * `has`, `size`, `values`, `keys`, like a `Map<string, V>`.
 *
 * Why not a plain `Map`: under that churn V8 rebuilds a `Map`'s hash table every few insertions
 * and links each obsolete table to its successor (for iterators still open on it), each still
 * holding the entries it held. Once one obsolete table sits in the old generation, every minor GC
 * keeps the whole chain alive — and with it every value any of its tables named, with all they
 * reference — until a full GC: in a memory-driver drain, about 2 KB of every finished job's
 * objects were copied and promoted instead of dying young (minor GCs 3–4× longer). This one moves
 * its entries to a fresh `Map` every {@link WRITES_PER_GENERATION} writes: a chain, if one ever
 * starts, ends there, and a map that lives that briefly is not promoted in the first place.
 * (A null-prototype dictionary object avoids the chain too, but costs ≈ 2.5× a `Map` per
 * operation.)
 */
export class ChurnMap<V> {
  #map = new Map<string, V>();
  #writes = 0;

  /** How many entries it holds. */
  get size(): number {
    return this.#map.size;
  }

  get(key: string): V | undefined {
    return this.#map.get(key);
  }

  has(key: string): boolean {
    return this.#map.has(key);
  }

  set(key: string, value: V): this {
    this.#writes += 1;
    if (this.#writes >= WRITES_PER_GENERATION) {
      this.#writes = 0;
      this.#map = new Map(this.#map);
    }
    this.#map.set(key, value);
    return this;
  }

  /** Removes `key`; true when it was there. */
  delete(key: string): boolean {
    return this.#map.delete(key);
  }

  /** The values in insertion order, as an array taken now (later writes do not change it). */
  values(): V[] {
    return [...this.#map.values()];
  }

  /** The keys in insertion order, as an array taken now. */
  keys(): string[] {
    return [...this.#map.keys()];
  }
}

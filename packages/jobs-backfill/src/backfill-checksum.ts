import { createHash } from 'node:crypto';

/** What the checksum covers: what the sweep does, never how fast (`batch`, `rate` are tuning). */
export interface ChecksumParts {
  readonly name: string;
  readonly functions: readonly unknown[];
  readonly key: string | null;
  readonly requires: readonly string[];
}

/**
 * `sha256:<hex>` over the name, the source text of the functions that select and write, the key
 * column and `requires`. Function text moves when a bundler rewrites it, which is why a moved
 * checksum warns and never refuses.
 */
export function backfillChecksum(parts: ChecksumParts): string {
  const hash = createHash('sha256');
  hash.update(
    JSON.stringify([
      parts.name,
      parts.functions.map((fn) => (typeof fn === 'function' ? fn.toString() : null)),
      parts.key,
      parts.requires,
    ]),
  );
  return `sha256:${hash.digest('hex')}`;
}

/** The median of a set of runs with its spread. */
export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly n: number;
}

/** Median, min and max of `values` (the median of an even count is the mean of the middle two). */
export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new RangeError('summarize: no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted[sorted.length - 1] as number, n: sorted.length };
}

/** The nearest-rank percentile `p` (0–100] of `values`: the smallest value with p % of values ≤ it. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError('percentile: no values');
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile: p must be in (0, 100], got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[rank - 1] as number;
}

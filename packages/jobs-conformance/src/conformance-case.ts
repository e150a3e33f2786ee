/**
 * One named behaviour of a contract, as data: `run` resolves when the subject behaves and throws
 * an assertion error when it does not. Registered as a vitest test by the suite functions, and
 * runnable on its own (the package's self-tests run cases against deliberately broken drivers).
 */
export interface ConformanceCase<Harness> {
  /** The member or area it covers, e.g. `'claim'`: the vitest `describe` it sits under. */
  readonly group: string;
  /** What must hold, as a sentence: the vitest test name. Unique within the group. */
  readonly name: string;
  run(harness: Harness): Promise<void>;
}
